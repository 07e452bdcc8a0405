import { type HistoryPoint, PRODUCT_TRACKED_FIELDS, type RankPoint, type TrackedValue } from '@crawl/sdk';
import { formatTime } from './format.ts';
import { sampleSteps, sparkline, type Step } from './sparkline.ts';

/** The columns `crawl history` shows when no `--fields` were asked for (`--json` has them all). */
export const DEFAULT_HISTORY_COLUMNS = ['price', 'inStock', 'buyBoxSeller', 'rating', 'reviewCount', 'bestSellersRank'] as const;

const HEADERS: Readonly<Record<string, string>> = {
  price: 'PRICE',
  listPrice: 'LIST PRICE',
  currency: 'CURRENCY',
  inStock: 'IN STOCK',
  availability: 'AVAILABILITY',
  buyBoxSeller: 'SELLER',
  offerCount: 'OFFERS',
  rating: 'RATING',
  reviewCount: 'REVIEWS',
  hasCoupon: 'COUPON',
  hasDeal: 'DEAL',
};

const RANK_PREFIX = 'bestSellersRank:';

/**
 * The value keys of the points a table shows, in the order of the tracked fields, one column per
 * best-sellers category. `wanted` names tracked fields (`bestSellersRank` for every category);
 * the currency is shown with the prices rather than in a column of its own unless asked for.
 */
export function historyColumns(points: readonly HistoryPoint[], wanted: readonly string[]): string[] {
  const present = new Set(points.flatMap((point) => Object.keys(point.values)));
  const columns: string[] = [];
  for (const field of PRODUCT_TRACKED_FIELDS) {
    if (!wanted.includes(field)) continue;
    if (field === 'bestSellersRank') columns.push(...[...present].filter((key) => key.startsWith(RANK_PREFIX)).sort());
    else if (present.has(field)) columns.push(field);
  }
  for (const key of wanted) if (key.startsWith(RANK_PREFIX) && present.has(key) && !columns.includes(key)) columns.push(key);
  return columns;
}

export function historyHeader(column: string): string {
  return column.startsWith(RANK_PREFIX) ? `RANK (${column.slice(RANK_PREFIX.length)})` : (HEADERS[column] ?? column.toUpperCase());
}

/** A value as a cell: prices with two decimals and their currency, flags as yes/no, an observed absence as `-`. */
export function historyCell(column: string, values: HistoryPoint['values']): string {
  const value: TrackedValue | undefined = values[column];
  if (value === undefined) return '';
  if (value === null) return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if ((column === 'price' || column === 'listPrice') && typeof value === 'number') {
    return typeof values.currency === 'string' ? `${value.toFixed(2)} ${values.currency}` : value.toFixed(2);
  }
  const text = String(value);
  return text.length > 30 ? `${text.slice(0, 29)}…` : text;
}

export function historyRow(point: HistoryPoint, columns: readonly string[]): string[] {
  return [formatTime(point.from), formatTime(point.to), String(point.checks), ...columns.map((column) => historyCell(column, point.values))];
}

/** The field a chart draws: the price when the points have one, else the first column holding numbers. */
export function chartField(points: readonly HistoryPoint[], columns: readonly string[]): string | undefined {
  const numeric = (field: string) => points.some((point) => typeof point.values[field] === 'number');
  return numeric('price') ? 'price' : columns.find(numeric);
}

/** One field of change points as steps (numbers only; anything else is a gap). */
export function stepsOf<P extends { from: string; to: string }>(points: readonly P[], read: (point: P) => unknown): Step[] {
  return points.map((point) => {
    const value = read(point);
    return { from: Date.parse(point.from), to: Date.parse(point.to), value: typeof value === 'number' ? value : null };
  });
}

const amount = (field: string, value: number) => (field === 'price' || field === 'listPrice' ? value.toFixed(2) : String(value));

/** `price  ▁▂▅█▃  low 9.00, high 12.00, now 9.00 EUR`: the field over the whole window, `width` characters wide. */
export function historyChart(points: readonly HistoryPoint[], field: string, width: number): string | undefined {
  const steps = stepsOf(points, (point) => point.values[field]);
  const numbers = steps.map((step) => step.value).filter((value): value is number => value !== null);
  if (numbers.length === 0) return undefined;
  const now = steps[steps.length - 1]?.value;
  const last = points[points.length - 1]?.values;
  const unit = (field === 'price' || field === 'listPrice') && typeof last?.currency === 'string' ? ` ${last.currency}` : '';
  const line = sparkline(sampleSteps(steps, width));
  const label = field.startsWith(RANK_PREFIX) ? historyHeader(field).toLowerCase() : field;
  return `${label}  ${line}  low ${amount(field, Math.min(...numbers))}, high ${amount(field, Math.max(...numbers))}, now ${now === null || now === undefined ? '-' : `${amount(field, now)}${unit}`}`;
}

/** One ASIN's rank points summed up: where it stands now, its best and worst places, and its trend (first place tallest). */
export interface RankSummary {
  asin: string;
  now: number | null | undefined;
  best: number | undefined;
  worst: number | undefined;
  points: number;
  trend: string;
}

/** The keyword's points (by ASIN, then oldest first) as one summary per ASIN, in the order they came. */
export function rankSummaries(points: readonly RankPoint[], width: number): RankSummary[] {
  const byAsin = new Map<string, RankPoint[]>();
  for (const point of points) byAsin.set(point.asin, [...(byAsin.get(point.asin) ?? []), point]);
  return [...byAsin].map(([asin, own]) => {
    const ranks = own.map((point) => point.organicRank).filter((rank): rank is number => typeof rank === 'number');
    return {
      asin,
      now: own[own.length - 1]?.organicRank,
      best: ranks.length ? Math.min(...ranks) : undefined,
      worst: ranks.length ? Math.max(...ranks) : undefined,
      points: own.length,
      trend: sparkline(
        sampleSteps(
          stepsOf(own, (point) => point.organicRank),
          width,
        ),
        { invert: true },
      ),
    };
  });
}

/** A rank as a cell: the place, `-` when it was not among the results checked, empty when never observed. */
export function rankCell(rank: number | null | undefined): string {
  return rank === undefined ? '' : rank === null ? '-' : String(rank);
}
