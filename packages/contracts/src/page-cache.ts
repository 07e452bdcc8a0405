import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';
import type { JobType } from './credits.ts';
import type { ResultRecord } from './records.ts';
import { defineInternalRoutes } from './route-spec.ts';

// The shared page cache (docs/adr/0023-shared-page-cache.md): a target fetched within a job's
// `config.maxAge` is answered with the records of that fetch, at the cached price.

/** The job types whose targets the cache answers (`config.maxAge` on another type is a 400). */
export const PAGE_CACHE_TYPES: readonly JobType[] = ['details', 'search'];

/** `30m`, `6h`, `1d`: a whole number of minutes, hours or days. */
export const MAX_AGE_PATTERN = '^[1-9][0-9]{0,4}[mhd]$';
/** The oldest fetch a job may take from the cache. */
export const MAX_AGE_LIMIT_MS = 30 * 86_400_000;

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a `maxAge` text, or undefined when it is not one (`90s`, `0h`, `1w`). */
export function maxAgeMs(text: string): number | undefined {
  if (!new RegExp(MAX_AGE_PATTERN).test(text)) return undefined;
  const unit = text.at(-1) as keyof typeof UNIT_MS;
  return Number(text.slice(0, -1)) * UNIT_MS[unit];
}

/** The cache key: a SHA-256 (hex) of the target's public identity, never of who asked. */
export const PageCacheKey = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const PageCacheLookupBody = Type.Object(
  {
    key: PageCacheKey,
    /** Only a fetch at most this old answers. */
    maxAgeMs: Type.Integer({ minimum: 1, maximum: MAX_AGE_LIMIT_MS }),
  },
  { additionalProperties: false },
);
export type PageCacheLookupBody = Static<typeof PageCacheLookupBody>;

const CachedRecords = Type.Array(Type.Unsafe<ResultRecord>(Type.Record(Type.String(), Type.Unknown())), { maxItems: 5000 });

export const PageCacheLookupResponse = Type.Object({
  data: Type.Object({
    hit: Type.Boolean(),
    /** With a hit: the records of the fetch, without anything of the job that made it. */
    records: Type.Optional(CachedRecords),
    /** With a hit: when that fetch was made. */
    fetchedAt: Type.Optional(Timestamp),
  }),
});
export type PageCacheLookupResponse = Static<typeof PageCacheLookupResponse>;

export const PageCacheStoreBody = Type.Object(
  {
    key: PageCacheKey,
    records: CachedRecords,
    fetchedAt: Timestamp,
  },
  { additionalProperties: false },
);
export type PageCacheStoreBody = Static<typeof PageCacheStoreBody>;

export const PageCacheStoreResponse = Type.Object({ data: Type.Object({ stored: Type.Boolean() }) });

/** Catalog keeps the cache in its database; the worker reaches it over these (it may run apart, ADR 0001). */
export const PageCacheInternalRoutes = defineInternalRoutes({
  lookupPage: {
    method: 'POST',
    url: '/internal/catalog/page-cache/lookup',
    access: 'internal',
    schema: { body: PageCacheLookupBody, response: { 200: PageCacheLookupResponse } },
  },
  storePage: {
    method: 'POST',
    url: '/internal/catalog/page-cache/entries',
    access: 'internal',
    bodyLimit: 32 * 1024 * 1024,
    schema: { body: PageCacheStoreBody, response: { 200: PageCacheStoreResponse } },
  },
});
