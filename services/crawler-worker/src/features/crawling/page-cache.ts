import { createHash } from 'node:crypto';
import { maxAgeMs, PAGE_CACHE_TYPES, type CrawlTask, type ReportTargetBody, type ResultRecord, type SearchRecord } from '@crawl/contracts';
import { succeeded } from './crawl-context.ts';
import { checkRecord, shortfall, type CheckedRecord, type UncheckedRecord } from './record-checks.ts';
import { requiredOf, searchPagesOf } from './search-crawl.ts';
import type { Storefront } from './marketplace-origin.ts';

/** The shared page cache as the worker uses it (catalog keeps it: docs/adr/0023-shared-page-cache.md). */
export interface PageCache {
  /** The records of a fetch of `key` at most `maxAgeMs` old, or undefined. */
  lookup(key: string, maxAgeMs: number): Promise<{ records: ResultRecord[]; fetchedAt: string } | undefined>;
  /** Keeps the records of a fetch made at `fetchedAt`. */
  store(key: string, records: readonly ResultRecord[], fetchedAt: string): Promise<void>;
}

/** What the cache may answer for a task: its key and the age it accepts; undefined when the job asked for no cache. */
export interface CacheQuestion {
  key: string;
  maxAgeMs: number;
}

/**
 * The cache key of a task: a hash of what makes the page what it is (storefront, type, target, and
 * for search its pages and sort; delivery postal code and language), and of nothing that says who
 * asked: two organizations asking for the same page share the entry.
 */
export function cacheQuestion(task: CrawlTask, store: Pick<Storefront, 'origin' | 'domain'>): CacheQuestion | undefined {
  const { config, type } = task;
  if (config.maxAge === undefined || !PAGE_CACHE_TYPES.includes(type)) return undefined;
  const age = maxAgeMs(config.maxAge);
  if (age === undefined) return undefined;
  const identity = {
    origin: store.origin,
    domain: store.domain ?? null,
    type,
    target: type === 'details' ? task.value.toUpperCase() : task.value,
    pages: type === 'search' ? searchPagesOf(config) : null,
    sort: type === 'search' ? (config.sort ?? 'featured') : null,
    zip: config.deliveryZip?.toUpperCase().replace(/\s+/g, '') ?? null,
    lang: config.lang?.toLowerCase() ?? null,
  };
  return { key: createHash('sha256').update(JSON.stringify(identity)).digest('hex'), maxAgeMs: age };
}

/**
 * A target answered from the cache: its records as fetched, checked again against this job's
 * required fields and postal code (the entry keeps no job's checks), each with `cachedAt`. No
 * request was made, and the report says so with `cachedAt`, which catalog charges at the cached price.
 */
export function cachedReport(task: CrawlTask, records: readonly ResultRecord[], fetchedAt: string, required: readonly string[]): ReportTargetBody {
  const zip = task.config.deliveryZip;
  const items = records.map((record) => {
    const fields = task.type === 'search' ? requiredOf(record as unknown as SearchRecord, required) : required;
    const checked = checkRecord(record as unknown as UncheckedRecord<SearchRecord>, fields, zip) as CheckedRecord;
    return { ...checked, cachedAt: fetchedAt };
  });
  return { ...succeeded(items as unknown as ResultRecord[], 0, shortfall(items)), cachedAt: fetchedAt };
}
