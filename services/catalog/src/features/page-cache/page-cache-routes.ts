import { PageCacheInternalRoutes } from '@crawl/contracts';
import { routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { PageCacheStore } from './page-cache-store.ts';

/** The worker's reads and writes of the shared page cache (internal: a service token, no identity). */
export function pageCacheRoutes(app: FastifyInstance, cache: PageCacheStore): void {
  routeFromSpec(app, PageCacheInternalRoutes.lookupPage, async (request) => {
    const page = await cache.lookup(request.body.key, request.body.maxAgeMs);
    return { data: page === undefined ? { hit: false } : { hit: true, records: page.records, fetchedAt: page.fetchedAt } };
  });
  routeFromSpec(app, PageCacheInternalRoutes.storePage, async (request) => ({
    data: { stored: await cache.store(request.body.key, request.body.records, request.body.fetchedAt) },
  }));
}
