import { CATALOG_LIMITS, CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { ResultJob, ResultStore } from './result-store.ts';

/**
 * Where the results route finds the caller's job: the jobs feature's lifecycle, which answers 404
 * for another organization's job. Declared here so results never depends on jobs (jobs write results).
 */
export interface OwnedJobs {
  getOwned(organizationId: string, id: string): Promise<ResultJob>;
}

/** A page of a job's results, by page number or from a cursor. */
export function resultRoutes(app: FastifyInstance, services: { jobs: OwnedJobs; results: ResultStore }): void {
  const { jobs, results } = services;
  routeFromSpec(app, CatalogRoutes.jobResults, async (request) => {
    const job = await jobs.getOwned(callerOf(request).organizationId, request.params.id);
    const pageSize = Math.min(request.query.pageSize ?? CATALOG_LIMITS.resultsDefaultPageSize, CATALOG_LIMITS.resultsMaxPageSize);
    const { cursor } = request.query;
    const { items, ...pagination } =
      cursor === undefined ? await results.page(job, request.query.page ?? 1, pageSize) : await results.pageFrom(job, cursor, pageSize);
    return { data: { items, pagination } };
  });
}
