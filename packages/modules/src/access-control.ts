import type { AccessLevel } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { IDENTITY_HEADER, SERVICE_TOKEN_HEADER, type InternalTokens } from '@crawl/service-client';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { IdentityResolver } from './service-module.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Paths served by plugins that declare no access level themselves (the API explorer). */
const PUBLIC_PREFIXES = ['/docs', '/openapi.json'];

/**
 * Enforces each route's declared `config.access`. A route that declares nothing is internal:
 * forgetting to declare access closes a route rather than opening it.
 */
export const accessControlPlugin = fp<{ tokens: InternalTokens; resolver: () => IdentityResolver | undefined }>(
  async function accessControl(app: FastifyInstance, { tokens, resolver }) {
    app.decorateRequest('identity', null);
    app.decorateRequest('callerService', null);

    /**
     * Where the gateway runs in this process, this is the public port: only the Bearer token
     * counts, and an identity header from a client is ignored however it is signed (only
     * internal routes read one, next to a service token). Elsewhere every request comes
     * through the gateway, which signs the caller's identity into that header.
     */
    const identify = async (request: FastifyRequest) => {
      const resolve = resolver();
      if (resolve) return resolve(request);
      const forwarded = header(request, IDENTITY_HEADER);
      if (!forwarded) return null;
      const identity = tokens.verifyIdentity(forwarded);
      if (!identity) throw errors.unauthorized('Invalid forwarded identity');
      return identity;
    };

    const guard = (access: AccessLevel): onRequestHookHandler =>
      async function accessGuard(request) {
        switch (access) {
          case 'public':
            return;
          case 'internal': {
            const caller = tokens.verifyService(header(request, SERVICE_TOKEN_HEADER));
            if (!caller) throw errors.unauthorized('This route is for internal callers only');
            request.callerService = caller;
            request.identity = tokens.verifyIdentity(header(request, IDENTITY_HEADER));
            return;
          }
          case 'optional':
            request.identity = await identify(request).catch(() => null);
            return;
          default: {
            const identity = await identify(request);
            if (!identity) throw errors.unauthorized(resolver() ? 'Missing bearer token' : 'This service answers requests forwarded by the gateway only');
            if (access === 'admin' && identity.role !== 'admin') throw errors.forbidden('Admin access required');
            if (access === 'dashboard' && identity.audience !== 'dashboard') throw errors.forbidden('A dashboard token is required for this route');
            request.identity = identity;
          }
        }
      };

    app.addHook('onRoute', (route) => {
      const declared = route.config?.access;
      const access: AccessLevel = declared ?? (PUBLIC_PREFIXES.some((p) => route.url.startsWith(p)) ? 'public' : 'internal');
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [guard(access), ...existing];
    });
  },
  { name: 'crawl-access-control' },
);
