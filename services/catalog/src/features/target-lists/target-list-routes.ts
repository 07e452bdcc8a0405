import { TargetListRoutes } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import { acceptStreamedBodies, callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UploadFormat } from './list-intake.ts';
import type { TargetListService } from './target-list-service.ts';

function formatOf(request: FastifyRequest): UploadFormat {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'text/plain') return 'text';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload the list as text/plain (one target a line) or text/csv', 415);
}

/**
 * The public target-list routes (table: packages/contracts/src/target-lists.ts). The upload's
 * body reaches the handler as the request stream: its own scope hands plain text and CSV over
 * unread and capped at the route's size, so no upload is ever held whole (nor bounded by the
 * JSON body limit).
 */
export function targetListRoutes(app: FastifyInstance, lists: TargetListService): void {
  const R = TargetListRoutes;
  void app.register(async (scope) => {
    acceptStreamedBodies(scope, R.uploadTargetList.streamedBody);
    routeFromSpec(scope, R.uploadTargetList, async (request, reply) => {
      const format = formatOf(request);
      const body = request.body as unknown as AsyncIterable<Uint8Array> | undefined;
      if (!body) throw errors.validation('The upload is empty');
      const upload = await lists.upload(callerOf(request), request.params.projectId, request.query, body, format);
      return reply.code(201).send({ data: upload });
    });
  });
  routeFromSpec(app, R.listTargetLists, async (request) => lists.list(callerOf(request).organizationId, request.params.projectId, request.query));
  routeFromSpec(app, R.getTargetList, async (request) => ({ data: await lists.get(callerOf(request).organizationId, request.params.id, request.query) }));
  routeFromSpec(app, R.deleteTargetList, async (request, reply) => {
    await lists.remove(callerOf(request).organizationId, request.params.id);
    return reply.code(204).send(null);
  });
}
