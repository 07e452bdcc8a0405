import type { RouteSpec } from '@crawl/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

/**
 * Registers a handler for a public route from the contracts table, so the path, schemas, access
 * level and throttles are declared once and shared with the gateway.
 */
export function routeFromSpec(
  app: FastifyInstance,
  spec: RouteSpec,
  handler: (request: FastifyRequest<any>, reply: FastifyReply) => unknown,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    schema: { ...spec.schema, tags: [...spec.schema.tags] },
    config: { access: spec.access, owner: spec.owner, rateLimits: spec.rateLimits },
    handler: handler as RouteHandlerMethod,
  });
}
