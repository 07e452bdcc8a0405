import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import { abortSignalFor } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import type { JobExports } from './export-service.ts';

/** A finished job's results as a JSON or CSV download; counts against the organization's exports. */
export function exportRoutes(app: FastifyInstance, exports: JobExports): void {
  routeFromSpec(app, CatalogRoutes.exportJob, async (request, reply) => {
    const format = request.query.format ?? 'json';
    const { job, file } = await exports.open(callerOf(request), request.params.id, format, { requestId: request.id, signal: abortSignalFor(reply.raw) });
    void reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="job-${job._id}.${format}"`)
      .header('cache-control', 'no-store');
    return reply.send(file);
  });
}
