import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { JobEstimates } from './job-estimates.ts';

/** `POST /projects/:projectId/jobs/estimate`: what a create with the same body would reserve and wait for. */
export function estimateRoutes(app: FastifyInstance, estimates: JobEstimates): void {
  routeFromSpec(app, CatalogRoutes.estimateJob, async (request) => {
    const identity = callerOf(request);
    return { data: await estimates.estimate(identity, request.params.projectId, request.body, { requestId: request.id, identity }) };
  });
}
