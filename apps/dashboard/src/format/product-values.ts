import { type HistoryResolution, type HistoryValues, PRODUCT_TRACKED_FIELDS } from '@crawl/sdk';
import { fieldLabel } from './history-series.ts';

/** A tracked value in words, as the latest values list shows it. */
export interface ValueFact {
  field: string;
  label: string;
  value: string;
}

const money = (amount: number, currency: unknown) =>
  typeof currency === 'string' && /^[A-Z]{3}$/.test(currency)
    ? amount.toLocaleString(undefined, { style: 'currency', currency })
    : amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The latest values in the order of the tracked fields, one line per best-sellers category:
 * prices in their currency, flags in words, an observed absence as "none shown". Fields never
 * observed are left out.
 */
export function latestFacts(values: HistoryValues): ValueFact[] {
  const facts: ValueFact[] = [];
  for (const field of PRODUCT_TRACKED_FIELDS) {
    if (field === 'currency') continue;
    if (field === 'bestSellersRank') {
      for (const key of Object.keys(values)
        .filter((k) => k.startsWith('bestSellersRank:'))
        .sort()) {
        const rank = values[key];
        facts.push({
          field: key,
          label: `Best-sellers rank in ${fieldLabel(key)}`,
          value: typeof rank === 'number' ? `#${rank.toLocaleString()}` : 'not ranked',
        });
      }
      continue;
    }
    const value = values[field];
    if (value === undefined) continue;
    facts.push({ field, label: fieldLabel(field), value: valueWords(field, value, values.currency) });
  }
  return facts;
}

function valueWords(field: string, value: HistoryValues[string], currency: unknown): string {
  if (value === null) return field === 'price' ? 'none shown (no offer)' : 'none shown';
  if (field === 'inStock') return value ? 'Yes' : 'No (unavailable)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if ((field === 'price' || field === 'listPrice') && typeof value === 'number') return money(value, currency);
  if (field === 'rating' && typeof value === 'number') return `${value.toLocaleString()} of 5`;
  return typeof value === 'number' ? value.toLocaleString() : value;
}

/** A price for a chart's axis and summary, in the currency of the latest values. */
export function moneyFormat(currency: unknown): (value: number) => string {
  return (value) => money(value, currency);
}

/** The windows the product page offers, each with the resolution that keeps a chart readable. */
export const HISTORY_WINDOWS = [
  { id: '1d', label: 'Last 24 hours', days: 1, resolution: undefined },
  { id: '7d', label: 'Last 7 days', days: 7, resolution: '1h' },
  { id: '30d', label: 'Last 30 days', days: 30, resolution: '1h' },
  { id: '90d', label: 'Last 90 days', days: 90, resolution: '1d' },
  { id: '365d', label: 'Last year', days: 365, resolution: '1d' },
  { id: 'all', label: 'Everything kept', days: undefined, resolution: '1d' },
] as const satisfies ReadonlyArray<{ id: string; label: string; days: number | undefined; resolution: HistoryResolution | undefined }>;

export type HistoryWindowId = (typeof HISTORY_WINDOWS)[number]['id'];
/** `auto`: the window's own; `raw`: every change point as recorded. */
export type ResolutionChoice = 'auto' | 'raw' | HistoryResolution;

/** The history query of a window and a resolution choice, measured back from `now`. */
export function windowQuery(id: string, choice: ResolutionChoice, now: Date = new Date()): { from?: string; resolution?: HistoryResolution } {
  const window = HISTORY_WINDOWS.find((w) => w.id === id) ?? HISTORY_WINDOWS[2];
  const resolution = choice === 'auto' ? window.resolution : choice === 'raw' ? undefined : choice;
  return {
    ...(window.days === undefined ? {} : { from: new Date(now.getTime() - window.days * 86_400_000).toISOString() }),
    ...(resolution ? { resolution } : {}),
  };
}

/** The ASIN in what was typed: an ASIN in any case, or a product URL with `/dp/ASIN` (or `/gp/product/ASIN`); undefined otherwise. */
export function asinFrom(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Za-z0-9]{10}$/.test(trimmed)) return trimmed.toUpperCase();
  const inUrl = /\/(?:dp|gp\/product)\/([A-Za-z0-9]{10})(?:[/?#]|$)/.exec(trimmed);
  return inUrl?.[1]?.toUpperCase();
}

/** The product page of an ASIN on a storefront and delivery ZIP (both left out when empty). */
export function productHref(asin: string, where: { domain?: string | null; zip?: string | null } = {}): string {
  const query = new URLSearchParams();
  if (where.domain) query.set('domain', where.domain);
  if (where.zip) query.set('zip', where.zip);
  const text = query.toString();
  return `/products/${encodeURIComponent(asin)}${text ? `?${text}` : ''}`;
}
