import type { ResultItem } from '@crawl/sdk';

/** A row of the results table: one result, a ProductRecord or a SearchRecord (`{asin, title, price: {amount, currency}, rating, rank, …}`). */
export type ResultRow = ResultItem;

/** Shown until the user chooses otherwise. */
export const DEFAULT_COLUMNS = ['rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'keyword'];
export const PREFERRED_COLUMNS = ['rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'keyword', 'page'];
export const SORTABLE: Record<string, (row: ResultRow) => number | undefined> = {
  price: (row) => numberOf(row.price?.amount),
  rating: (row) => numberOf(row.rating),
  rank: (row) => numberOf(row.rank ?? row.position),
};

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Every key seen in the rows, the usual ones first. */
export function columnsOf(rows: readonly ResultRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...PREFERRED_COLUMNS.filter((key) => seen.has(key)), ...[...seen].filter((key) => !PREFERRED_COLUMNS.includes(key)).sort()];
}

/** A cell as text: prices with their currency, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const price = value as { amount?: unknown; currency?: unknown };
    if ('amount' in price) return `${String(price.amount)} ${typeof price.currency === 'string' ? price.currency : ''}`.trim();
    return JSON.stringify(value);
  }
  return String(value);
}

/** Rows sorted by a numeric column; rows without a value go last either way. */
export function sortRows(rows: readonly ResultRow[], key: string, direction: 'asc' | 'desc'): ResultRow[] {
  const read = SORTABLE[key];
  if (!read) return rows.slice();
  const sign = direction === 'asc' ? 1 : -1;
  return rows.slice().sort((a, b) => {
    const x = read(a);
    const y = read(b);
    if (x === undefined) return y === undefined ? 0 : 1;
    if (y === undefined) return -1;
    return (x - y) * sign;
  });
}
