import { CatalogInternalRoutes, CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import { abortSignalFor } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import { toJobView } from './job-model.ts';
import type { JobService } from './job-service.ts';
import { jobViewWithQueue } from '../queue-position/job-view.ts';
import type { QueuePositions } from '../queue-position/queue-position.ts';

/**
 * Jobs: create, list, read, retry, cancel; and the internal side of a target's life, where the
 * crawler-worker claims and reports targets and billing's reconciler asks where a job stands.
 */
export function jobRoutes(app: FastifyInstance, jobs: JobService, positions: QueuePositions): void {
  const withQueue = jobViewWithQueue(positions);
  routeFromSpec(app, CatalogRoutes.createJob, async (request, reply) => {
    const identity = callerOf(request);
    const job = await jobs.create(identity, request.params.projectId, request.body, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
    return reply.code(201).send({ data: toJobView(job) });
  });
  routeFromSpec(app, CatalogRoutes.listJobs, async (request) => {
    const { jobs: page, meta } = await jobs.list(callerOf(request).organizationId, request.params.projectId, request.query);
    return { data: page.map(toJobView), meta };
  });
  routeFromSpec(app, CatalogRoutes.getJob, async (request) => {
    return { data: await withQueue(await jobs.getOwned(callerOf(request).organizationId, request.params.id)) };
  });
  routeFromSpec(app, CatalogRoutes.retryJob, async (request, reply) => {
    const identity = callerOf(request);
    const job = await jobs.retry(identity, request.params.id, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
    return reply.code(201).send({ data: toJobView(job) });
  });
  routeFromSpec(app, CatalogRoutes.cancelJob, async (request) => {
    return { data: toJobView(await jobs.cancel(callerOf(request), request.params.id, request.id)) };
  });

  const internal = CatalogInternalRoutes;
  routeFromSpec(app, internal.claimTarget, async (request) => ({ data: await jobs.claimTarget(request.params.jobId, request.params.index) }));
  routeFromSpec(app, internal.reportTarget, async (request) => ({
    data: await jobs.reportTarget(request.params.jobId, request.params.index, request.body),
  }));
  routeFromSpec(app, internal.jobState, async (request) => ({ data: await jobs.jobState(request.params.jobId) }));
  routeFromSpec(app, internal.abandonIfMissing, async (request) => ({ data: await jobs.abandonIfMissing(request.params.jobId) }));
}
