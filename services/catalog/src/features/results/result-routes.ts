import { CATALOG_LIMITS, CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import type { FastifyInstance } from 'fastify';
import type { JobService } from '../jobs/job-service.ts';
import type { ResultStore } from './result-service.ts';

/** A page of a job's results, by page number or from a cursor. */
export function resultRoutes(app: FastifyInstance, jobs: JobService, results: ResultStore): void {
  routeFromSpec(app, CatalogRoutes.jobResults, async (request) => {
    const job = await jobs.getOwned(callerOf(request).organizationId, request.params.id);
    const pageSize = Math.min(request.query.pageSize ?? CATALOG_LIMITS.resultsDefaultPageSize, CATALOG_LIMITS.resultsMaxPageSize);
    const { cursor } = request.query;
    const { items, ...pagination } =
      cursor === undefined ? await results.page(job, request.query.page ?? 1, pageSize) : await results.pageFrom(job, cursor, pageSize);
    return { data: { items, pagination } };
  });
}
