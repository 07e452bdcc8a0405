import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/modules';
import { abortSignalFor } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import { errors } from '@crawl/errors';
import type { Catalog } from '../../catalog.ts';
import { isTerminalJob } from '../jobs/job-model.ts';
import { exportJobResults } from './export-service.ts';

/** A finished job's results as a JSON or CSV download; counts against the organization's exports. */
export function exportRoutes(app: FastifyInstance, catalog: Catalog): void {
  routeFromSpec(app, CatalogRoutes.exportJob, async (request, reply) => {
    const identity = callerOf(request);
    const format = request.query.format ?? 'json';
    const job = await catalog.jobs.getOwned(identity.organizationId, request.params.id);
    // A job still crawling would export a partial file and spend an export on it: refused, not counted.
    if (!isTerminalJob(job.status)) {
      throw errors.conflict(`Job is still ${job.status}: export it once it has finished (completed, failed or cancelled); this request was not counted`, [
        { reason: 'JOB_NOT_FINISHED', status: job.status },
      ]);
    }
    // Everything that can fail with an envelope happens before the first byte.
    await catalog
      .billing()
      .consumeExport(
        { organizationId: identity.organizationId, jobId: job._id, format },
        { requestId: request.id, identity, signal: abortSignalFor(reply.raw) },
      );
    await catalog.audit.recordQuietly({
      organizationId: identity.organizationId,
      actorUserId: identity.userId,
      action: 'job.export',
      resourceType: 'job',
      resourceId: job._id,
      requestId: request.id,
      metadata: { format },
    });
    const file = await exportJobResults(catalog.results, job, format);
    void reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="job-${job._id}.${format}"`)
      .header('cache-control', 'no-store');
    return reply.send(file);
  });
}
