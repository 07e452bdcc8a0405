import type { HistoryPoint } from '@crawl/sdk';

/** One line of a chart: a tracked field's values at the chart's moments (null: a gap). */
export interface ChartLine {
  field: string;
  label: string;
  values: Array<number | null>;
}

/** A chart's data: the moments (seconds since the epoch, ascending) and one line per field. */
export interface ChartSeries {
  x: number[];
  lines: ChartLine[];
}

const RANK_PREFIX = 'bestSellersRank:';

/** The best-sellers categories the points hold a rank for, as their value keys, by name. */
export function rankFields(points: readonly HistoryPoint[]): string[] {
  const keys = new Set<string>();
  for (const point of points) for (const key of Object.keys(point.values)) if (key.startsWith(RANK_PREFIX)) keys.add(key);
  return [...keys].sort();
}

/** A field as a chart names it: a category for a rank, words for the others. */
export function fieldLabel(field: string): string {
  if (field.startsWith(RANK_PREFIX)) return field.slice(RANK_PREFIX.length);
  return FIELD_WORDS[field] ?? field;
}

const FIELD_WORDS: Readonly<Record<string, string>> = {
  price: 'Price',
  listPrice: 'List price',
  currency: 'Currency',
  inStock: 'In stock',
  availability: 'Availability',
  buyBoxSeller: 'Buy-box seller',
  offerCount: 'Offers',
  rating: 'Rating',
  reviewCount: 'Reviews',
  bestSellersRank: 'Best-sellers rank',
  hasCoupon: 'Coupon',
  hasDeal: 'Deal',
};

/**
 * Change points as a step chart's data. A point holds its values from `from` until `to` (its
 * last check), and, as history only records changes, until the next point begins: so each point
 * is one moment at its `from`, drawn as a step that holds until the next moment, and the last
 * point also gets a moment at its `to` so its step reaches the last check. A field the point did
 * not hold, or held as null (an observed absence) or as text, is a gap.
 */
export function stepSeries(points: readonly HistoryPoint[], fields: readonly string[]): ChartSeries {
  const x: number[] = [];
  const columns: Array<Array<number | null>> = fields.map(() => []);
  const push = (at: number, point: HistoryPoint) => {
    // uPlot needs moments in ascending order; a point starting where the last one did replaces it.
    if (x.length > 0 && at <= (x[x.length - 1] as number)) {
      if (at < (x[x.length - 1] as number)) return;
      x.pop();
      for (const column of columns) column.pop();
    }
    x.push(at);
    fields.forEach((field, index) => {
      const value = point.values[field];
      columns[index]?.push(typeof value === 'number' && Number.isFinite(value) ? value : null);
    });
  };
  for (const point of points) push(Date.parse(point.from) / 1000, point);
  const last = points[points.length - 1];
  if (last) push(Date.parse(last.to) / 1000, last);
  return { x, lines: fields.map((field, index) => ({ field, label: fieldLabel(field), values: columns[index] ?? [] })) };
}

/** Only the lines that have at least one value: a field never observed draws nothing. */
export function withValues(series: ChartSeries): ChartSeries {
  return { x: series.x, lines: series.lines.filter((line) => line.values.some((value) => value !== null)) };
}

/** The data as uPlot takes it: the moments, then each line's values. */
export function uplotData(series: ChartSeries): [number[], ...Array<Array<number | null>>] {
  return [series.x, ...series.lines.map((line) => line.values)];
}

/** A chart in words for screen readers: each line's lowest, highest and latest value over the window. */
export function chartSummary(title: string, series: ChartSeries, format: (value: number) => string = String): string {
  if (series.lines.length === 0) return `${title}: no values in this window.`;
  const parts = series.lines.map((line) => {
    const values = line.values.filter((value): value is number => value !== null);
    const latest = [...line.values].reverse().find((value) => value !== null);
    return `${line.label} from ${format(Math.min(...values))} to ${format(Math.max(...values))}, latest ${latest === null || latest === undefined ? 'none' : format(latest)}`;
  });
  return `${title}: ${parts.join('; ')}.`;
}
