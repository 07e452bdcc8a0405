import { CatalogInternalRoutes, CatalogRoutes, type Job } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import { abortSignalFor } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import type { JobLifecycle } from './job-lifecycle.ts';
import { toJobView, type JobDoc } from './job-model.ts';
import type { JobReconciliation } from './job-reconciliation.ts';
import type { TargetProgress } from './target-progress.ts';

/** The services the job routes act on. */
export interface JobRouteServices {
  lifecycle: JobLifecycle;
  progress: TargetProgress;
  reconciliation: JobReconciliation;
  /** The Job as `GET /jobs/:id` shows it, with its queue position while it waits or runs (the queue-position feature). */
  view: (job: JobDoc) => Promise<Job>;
}

/**
 * Jobs: create, list, read, retry, cancel; and the internal side of a target's life, where the
 * crawler-worker claims and reports targets and billing's reconciler asks where a job stands.
 */
export function jobRoutes(app: FastifyInstance, services: JobRouteServices): void {
  const { lifecycle, progress, reconciliation, view } = services;
  routeFromSpec(app, CatalogRoutes.createJob, async (request, reply) => {
    const identity = callerOf(request);
    const job = await lifecycle.create(identity, request.params.projectId, request.body, {
      requestId: request.id,
      identity,
      signal: abortSignalFor(reply.raw),
    });
    return reply.code(201).send({ data: toJobView(job) });
  });
  routeFromSpec(app, CatalogRoutes.listJobs, async (request) => {
    const { jobs: page, meta } = await lifecycle.list(callerOf(request).organizationId, request.params.projectId, request.query);
    return { data: page.map(toJobView), meta };
  });
  routeFromSpec(app, CatalogRoutes.getJob, async (request) => {
    return { data: await view(await lifecycle.getOwned(callerOf(request).organizationId, request.params.id)) };
  });
  routeFromSpec(app, CatalogRoutes.retryJob, async (request, reply) => {
    const identity = callerOf(request);
    const job = await lifecycle.retry(identity, request.params.id, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
    return reply.code(201).send({ data: toJobView(job) });
  });
  routeFromSpec(app, CatalogRoutes.cancelJob, async (request) => {
    return { data: toJobView(await lifecycle.cancel(callerOf(request), request.params.id, request.id)) };
  });

  const internal = CatalogInternalRoutes;
  routeFromSpec(app, internal.claimTarget, async (request) => ({ data: await progress.claimTarget(request.params.jobId, request.params.index) }));
  routeFromSpec(app, internal.reportTarget, async (request) => ({
    data: await progress.reportTarget(request.params.jobId, request.params.index, request.body),
  }));
  routeFromSpec(app, internal.jobState, async (request) => ({ data: await reconciliation.state(request.params.jobId) }));
  routeFromSpec(app, internal.abandonIfMissing, async (request) => ({ data: await reconciliation.abandonIfMissing(request.params.jobId) }));
}
