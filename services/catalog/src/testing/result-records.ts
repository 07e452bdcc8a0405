import type { ProductRecord, SearchRecord } from '@crawl/contracts';

/**
 * A search record as the crawler reports one: every field the schema requires (an ASIN with its
 * title and URL, first on page 1 of `keyword`), then `fields` over them. Records are open objects,
 * so `fields` may add names the schema does not have.
 */
export function searchRecord<F extends object = Partial<SearchRecord>>(fields?: Partial<SearchRecord> & F): SearchRecord & F {
  const asin = fields?.asin ?? 'B000000001';
  const record = {
    asin,
    title: `Item ${asin}`,
    url: `https://www.amazon.com/dp/${asin}`,
    position: 1,
    page: 1,
    keyword: 'keyword',
    sponsored: false,
    prime: false,
    quality: { status: 'complete', missing: [] },
    missingFields: [],
    ...fields,
  } satisfies SearchRecord;
  return record as SearchRecord & F;
}

/** A product record as the crawler reports one: an ASIN with its title and URL, then `fields` over them. */
export function productRecord<F extends object = Partial<ProductRecord>>(fields?: Partial<ProductRecord> & F): ProductRecord & F {
  const asin = fields?.asin ?? 'B000000001';
  const record = {
    asin,
    title: `Product ${asin}`,
    url: `https://www.amazon.com/dp/${asin}`,
    quality: { status: 'complete', missing: [] },
    missingFields: [],
    ...fields,
  } satisfies ProductRecord;
  return record as ProductRecord & F;
}

/** `B` and the number in nine digits: `asinNumber(7)` is `B000000007`. */
export function asinNumber(n: number): string {
  return `B${String(n).padStart(9, '0')}`;
}

/** `count` search records of one page, positions 1…, ASINs numbered from `first`: a target's worth. */
export function searchRecords(count: number, first = 1): SearchRecord[] {
  return Array.from({ length: count }, (_, n) => searchRecord({ asin: asinNumber(first + n), position: n + 1 }));
}
