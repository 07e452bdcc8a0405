import { PUBLIC_ROUTES, type RouteSpec, type ServiceName } from '@crawl/contracts';
import { routeFromSpec, serviceUrlSetting } from '@crawl/modules';
import { IDENTITY_HEADER, type InternalTokens } from '@crawl/service-client';
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';

export interface ForwardingOptions {
  tokens: InternalTokens;
  isLocal: (service: ServiceName) => boolean;
  baseUrlOf: (service: ServiceName) => string | undefined;
}

/** Public routes whose owner runs in another process. */
export function remoteRoutes(isLocal: (service: ServiceName) => boolean): RouteSpec[] {
  return PUBLIC_ROUTES.filter((route) => route.owner !== 'gateway' && !isLocal(route.owner));
}

/**
 * For each public route owned by a service in another process: the same path, schemas and
 * policy here, then a proxy to the owner with the caller's identity signed into a header. The
 * client's own Authorization never travels further than the gateway.
 */
export async function forwardRoutes(app: FastifyInstance, options: ForwardingOptions): Promise<void> {
  const routes = remoteRoutes(options.isLocal);
  if (routes.length === 0) return;
  await app.register(replyFrom, { undici: { connections: 128, headersTimeout: 30_000, bodyTimeout: 300_000 } });
  for (const spec of routes) {
    const base = options.baseUrlOf(spec.owner);
    if (!base) throw new Error(`The gateway forwards ${spec.method} ${spec.url} to ${spec.owner}: set ${serviceUrlSetting(spec.owner) ?? 'its URL'}`);
    routeFromSpec(app, spec, (request, reply) =>
      reply.from(`${base.replace(/\/$/, '')}${request.url}`, {
        rewriteRequestHeaders: (_original, headers) => {
          const next: Record<string, string | string[] | undefined> = { ...headers, 'x-request-id': request.id };
          delete next.authorization;
          delete next[IDENTITY_HEADER];
          if (request.identity) next[IDENTITY_HEADER] = options.tokens.signIdentity(request.identity);
          return next;
        },
      }),
    );
  }
}
