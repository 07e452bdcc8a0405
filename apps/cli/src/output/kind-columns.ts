import type { JobType, ResultItem } from '@crawl/sdk';

/**
 * The columns `crawl results` shows per kind of record, in this order: what tells one review,
 * offer or ranked item from the next at a glance. Dotted names read inside an object
 * (`feedback.months12`). Search and details records keep the columns they always had.
 */
export const KIND_COLUMNS: Readonly<Record<JobType, readonly string[]>> = {
  search: ['keyword', 'target', 'rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'sponsored'],
  details: ['keyword', 'target', 'rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'sponsored'],
  reviews: ['asin', 'rating', 'title', 'date', 'verifiedPurchase', 'helpfulVotes', 'authorName'],
  offers: ['asin', 'position', 'sellerName', 'price', 'shipping', 'landedPrice', 'condition', 'buyBox', 'prime'],
  bestsellers: ['rank', 'asin', 'title', 'price', 'rating', 'reviewCount'],
  category: ['nodeId', 'rank', 'asin', 'title', 'price', 'rating', 'reviewCount', 'sponsored'],
  seller: ['sellerId', 'name', 'ratingPercent', 'ratingCount', 'feedback.days30', 'feedback.months12', 'feedback.lifetime', 'businessName'],
  autocomplete: ['prefix', 'position', 'suggestion', 'type'],
};

/**
 * The kind of a record, from a field only that kind has (the results route does not say the job's
 * type, and asking for the job would cost a request). Search and details records are told apart
 * by the keyword a search record carries.
 */
export function recordKind(item: ResultItem): JobType {
  const has = (field: string) => Object.hasOwn(item, field);
  if (has('suggestion')) return 'autocomplete';
  if (has('reviewId')) return 'reviews';
  if (has('buyBox')) return 'offers';
  if (has('nodeId')) return has('list') ? 'bestsellers' : 'category';
  if (has('sellerId') && !has('asin')) return 'seller';
  return has('keyword') ? 'search' : 'details';
}

/** A column's value: a field, or with a dotted name a field inside one. */
export function columnValue(item: ResultItem, column: string): unknown {
  let value: unknown = item;
  for (const part of column.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = Reflect.get(value, part);
  }
  return value;
}

/** The columns of the items' kind that any of them has, in the kind's order. */
export function kindColumns(items: readonly ResultItem[]): string[] {
  const first = items[0];
  if (first === undefined) return [];
  return KIND_COLUMNS[recordKind(first)].filter((column) => items.some((item) => columnValue(item, column) !== undefined));
}
