import type { JobType, ResultItem } from '@crawl/sdk';

/** A row of the results table: one result, the record of its job's type (`{asin, title, price: {amount, currency}, rating, rank, …}`). */
export type ResultRow = ResultItem;

/** Shown until the user chooses otherwise (search and details records). */
export const DEFAULT_COLUMNS = ['rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'keyword'];
export const PREFERRED_COLUMNS = ['rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'keyword', 'page'];

/**
 * Per job type, the columns shown until the user chooses otherwise, in this order, ahead of the
 * record's other fields: what tells one review, offer or ranked item from the next.
 */
export const KIND_COLUMNS: Readonly<Record<JobType, readonly string[]>> = {
  search: PREFERRED_COLUMNS,
  details: PREFERRED_COLUMNS,
  reviews: ['rating', 'title', 'date', 'verifiedPurchase', 'helpfulVotes', 'authorName', 'asin'],
  offers: ['position', 'sellerName', 'price', 'shipping', 'landedPrice', 'condition', 'buyBox', 'prime', 'asin'],
  bestsellers: ['rank', 'title', 'price', 'rating', 'reviewCount', 'asin'],
  category: PREFERRED_COLUMNS,
  seller: ['name', 'ratingPercent', 'ratingCount', 'feedback', 'businessName', 'sellerId'],
  autocomplete: ['position', 'suggestion', 'prefix'],
};

/** The columns a job type's table shows at first (search and details: without the page column). */
export function defaultColumnsOf(type: JobType): readonly string[] {
  return type === 'search' || type === 'details' || type === 'category' ? DEFAULT_COLUMNS : KIND_COLUMNS[type];
}

export const SORTABLE: Record<string, (row: ResultRow) => number | undefined> = {
  price: (row) => numberOf(row.price?.amount),
  landedPrice: (row) => numberOf(row.landedPrice?.amount),
  rating: (row) => numberOf(row.rating),
  rank: (row) => numberOf(row.rank ?? row.position),
  position: (row) => numberOf(row.position),
  helpfulVotes: (row) => numberOf(row.helpfulVotes),
  ratingPercent: (row) => numberOf(row.ratingPercent),
};

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Every key seen in the rows, the usual ones (of the job's type) first. */
export function columnsOf(rows: readonly ResultRow[], preferred: readonly string[] = PREFERRED_COLUMNS): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...preferred.filter((key) => seen.has(key)), ...[...seen].filter((key) => !preferred.includes(key)).sort()];
}

/** A cell as text: prices with their currency, counts by name (a seller's feedback), other objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const price = value as { amount?: unknown; currency?: unknown };
    if ('amount' in price) return `${String(price.amount)} ${typeof price.currency === 'string' ? price.currency : ''}`.trim();
    const entries = Object.entries(value);
    if (!Array.isArray(value) && entries.length > 0 && entries.every(([, n]) => typeof n === 'number')) {
      return entries.map(([name, n]) => `${name} ${(n as number).toLocaleString('en-US')}`).join(' · ');
    }
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
