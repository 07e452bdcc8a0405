import type { TObject } from '@sinclair/typebox';
import { RECORD_SCHEMAS, recordField, type JobType, type ResultRecord } from '@crawl/contracts';

/** Fields about the record rather than the page: no coverage to show. */
const BOOKKEEPING = new Set(['missingFields', 'quality', 'location', 'deliverTo', 'marketplace', 'cachedAt']);

/** The fields a record schema leaves optional: the ones a page may lack. */
function optionalFieldsOf(schema: TObject): readonly string[] {
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties).filter((name) => !required.has(name) && !BOOKKEEPING.has(name));
}
import { PRODUCT_FIELDS, SEARCH_ITEM_FIELDS } from '@crawl/marketplace';

/**
 * The optional fields of each record kind whose coverage a job shows (docs/data.md): the fields a
 * page may lack, so a drop in one of them is a layout change or a page kind without it.
 */
export const COVERAGE_FIELDS: Readonly<Record<JobType, readonly string[]>> = {
  details: PRODUCT_FIELDS,
  search: [...SEARCH_ITEM_FIELDS, 'searchTotalResults', 'relatedSearches'],
  reviews: optionalFieldsOf(RECORD_SCHEMAS.reviews),
  offers: optionalFieldsOf(RECORD_SCHEMAS.offers),
  bestsellers: optionalFieldsOf(RECORD_SCHEMAS.bestsellers),
  category: optionalFieldsOf(RECORD_SCHEMAS.category),
  seller: optionalFieldsOf(RECORD_SCHEMAS.seller),
  autocomplete: optionalFieldsOf(RECORD_SCHEMAS.autocomplete),
};

function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

/**
 * How many of a report's records have each field; fields none has are left out (a job's count of
 * a field is the sum over its targets, 0 when absent). Only the known fields are counted, so a
 * record's keys never become paths of the job document.
 */
export function countFields(type: JobType, items: readonly ResultRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const field of COVERAGE_FIELDS[type]) {
    let n = 0;
    for (const item of items) if (present(recordField(item, field))) n += 1;
    if (n > 0) counts[field] = n;
  }
  return counts;
}

/** Share of the job's records that have each field (0–1, four decimals); undefined before any record. */
export function fieldCoverage(type: JobType, counts: Readonly<Record<string, number>> | undefined, records: number): Record<string, number> | undefined {
  if (records <= 0) return undefined;
  const coverage: Record<string, number> = {};
  for (const field of COVERAGE_FIELDS[type]) coverage[field] = Math.round(((counts?.[field] ?? 0) / records) * 10_000) / 10_000;
  return coverage;
}
