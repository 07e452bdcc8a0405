/**
 * The shared page cache (docs/adr/0023-shared-page-cache.md): the records of recently fetched
 * public pages, keyed by a hash of the target's public identity, answered to any job whose
 * `config.maxAge` they are within.
 */
export { pageCacheRoutes } from './page-cache-routes.ts';
export { PAGE_CACHE_COLLECTION, PageCacheStore, publicRecord, type CachedPage, type PageCacheEntryDoc, type PageCacheSettings } from './page-cache-store.ts';
