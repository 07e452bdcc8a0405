import type { MonitorEvent, MonitorRule, TrackedField, TrackedValue } from '@crawl/contracts';

/** Tracked fields as people say them. */
const FIELD_WORDS: Readonly<Record<TrackedField, string>> = {
  price: 'price',
  listPrice: 'list price',
  currency: 'currency',
  inStock: 'stock',
  availability: 'availability',
  buyBoxSeller: 'buy-box seller',
  offerCount: 'offer count',
  rating: 'rating',
  reviewCount: 'review count',
  bestSellersRank: 'best-sellers rank',
  hasCoupon: 'coupon',
  hasDeal: 'deal',
  organicRank: 'organic rank',
  sponsoredPosition: 'sponsored position',
  page: 'result page',
};

const RANK_PREFIX = 'bestSellersRank:';

/** A tracked field in words; one category's rank (`bestSellersRank:Toys`) is "best-sellers rank in Toys". */
export function fieldInWords(field: string): string {
  if (field.startsWith(RANK_PREFIX)) return `best-sellers rank in ${field.slice(RANK_PREFIX.length)}`;
  return FIELD_WORDS[field as TrackedField] ?? field;
}

/**
 * A rule in words: "when price drops by 10 %", "when it becomes unavailable", "when it enters the
 * top 10"; a confirmed rule adds ", confirmed by a second check".
 */
export function ruleInWords(rule: MonitorRule): string {
  const field = fieldInWords(rule.field);
  const value = rule.value === undefined ? '?' : String(rule.value);
  const words = (() => {
    switch (rule.op) {
      case 'changed':
        return `when ${field} changes`;
      case 'dropsBy':
        return `when ${field} drops by ${value} %`;
      case 'risesBy':
        return `when ${field} rises by ${value} %`;
      case 'below':
        return `when ${field} goes below ${value}`;
      case 'above':
        return `when ${field} goes above ${value}`;
      case 'becomesUnavailable':
        return 'when it becomes unavailable';
      case 'becomesAvailable':
        return 'when it becomes available again';
      case 'sellerChanges':
        return 'when another seller takes the buy box';
      case 'entersTop':
        return `when it enters the top ${value}`;
      case 'leavesTop':
        return `when it leaves the top ${value}`;
    }
  })();
  return rule.confirm ? `${words}, confirmed by a second check` : words;
}

/** A tracked value in words: yes/no for flags, "none" for an observed absence. */
export function trackedValueInWords(value: TrackedValue | undefined): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** What a fired rule saw: "price 49.99 → 42.99 (−14 %)", "stock yes → no", "organic rank 5 → 2". */
export function changeInWords(event: Pick<MonitorEvent, 'field' | 'previous' | 'current' | 'changePercent'>): string {
  const percent =
    event.changePercent === null ? '' : ` (${event.changePercent > 0 ? '+' : event.changePercent < 0 ? '−' : ''}${Math.abs(event.changePercent)} %)`;
  return `${fieldInWords(event.field)} ${trackedValueInWords(event.previous)} → ${trackedValueInWords(event.current)}${percent}`;
}
