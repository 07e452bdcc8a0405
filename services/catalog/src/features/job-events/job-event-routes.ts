import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { JobEventService } from './job-event-service.ts';

/** A decimal event id, as this stream numbers them; anything else means "start afresh". */
function lastEventIdOf(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** `GET /jobs/:id/events`: the job's live events as Server-Sent Events (docs/api.md, Live job events). */
export function jobEventRoutes(app: FastifyInstance, events: JobEventService): void {
  routeFromSpec(app, CatalogRoutes.jobEvents, async (request, reply) => {
    const identity = callerOf(request);
    const opened = await events.open(identity.organizationId, request.params.id, lastEventIdOf(request.headers['last-event-id']));
    if ('finished' in opened) return reply.code(204).header('cache-control', 'no-store').send();
    const { stream } = opened;
    // The client left (or the answer ended): stop reading the job for it.
    reply.raw.once('close', () => stream.close());
    void reply
      .code(200)
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      // nginx and similar proxies would otherwise hold events back in their buffers.
      .header('x-accel-buffering', 'no');
    return reply.send(stream.body);
  });
}
