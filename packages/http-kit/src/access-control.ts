import type { AccessLevel, Identity } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { IDENTITY_HEADER, SERVICE_TOKEN_HEADER, type InternalTokens } from '@crawl/service-client';
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, once access control has run; null on public routes without a token. */
    identity: Identity | null;
    /** The calling service on internal routes. */
    callerService: string | null;
  }
}

/**
 * Turns a request into an identity; throws an AppError (or rejects with one) for a present but
 * invalid credential. A resolver that needs no I/O answers synchronously: no promise per request.
 */
export type IdentityResolver = (request: FastifyRequest) => Identity | null | Promise<Identity | null>;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Paths served by plugins that declare no access level themselves (the API explorer). */
const PUBLIC_PREFIXES = ['/docs', '/openapi.json'];

type Identified = Identity | null | Promise<Identity | null>;

/**
 * Enforces each route's declared `config.access`. A route that declares nothing is internal:
 * forgetting to declare access closes a route rather than opening it. Public routes get no hook
 * at all; the others a callback hook that stays synchronous unless the identity resolver is not
 * (a hook on every request should not cost a promise).
 */
export const accessControlPlugin = fp<{ tokens: InternalTokens; resolver: () => IdentityResolver | undefined }>(
  async function accessControl(app: FastifyInstance, { tokens, resolver }) {
    app.decorateRequest('identity', null);
    app.decorateRequest('callerService', null);

    // The modules that may bring a resolver are all initialized before the server is ready.
    let resolve: IdentityResolver | undefined;
    app.addHook('onReady', (done) => {
      resolve = resolver();
      done();
    });

    /**
     * Where the gateway runs in this process, this is the public port: only the Bearer token
     * counts, and an identity header from a client is ignored however it is signed (only
     * internal routes read one, next to a service token). Elsewhere every request comes
     * through the gateway, which signs the caller's identity into that header.
     */
    const identify = (request: FastifyRequest): Identified => {
      if (resolve) return resolve(request);
      const forwarded = header(request, IDENTITY_HEADER);
      if (!forwarded) return null;
      const identity = tokens.verifyIdentity(forwarded);
      if (!identity) throw errors.unauthorized('Invalid forwarded identity');
      return identity;
    };

    /** Calls `check` with the identity, now when it is at hand, else once it is. */
    const withIdentity = (identified: Identified, done: HookHandlerDoneFunction, check: (identity: Identity | null) => void) => {
      if (!(identified instanceof Promise)) {
        check(identified);
        done();
        return;
      }
      identified.then(
        (identity) => {
          try {
            check(identity);
          } catch (error) {
            done(error as Error);
            return;
          }
          done();
        },
        (error: Error) => done(error),
      );
    };

    const internalGuard: onRequestHookHandler = function internalGuard(request, _reply, done) {
      const caller = tokens.verifyService(header(request, SERVICE_TOKEN_HEADER));
      if (!caller) throw errors.unauthorized('This route is for internal callers only');
      request.callerService = caller;
      request.identity = tokens.verifyIdentity(header(request, IDENTITY_HEADER));
      done();
    };

    const optionalGuard: onRequestHookHandler = function optionalGuard(request, _reply, done) {
      let identified: Identified;
      try {
        identified = identify(request);
      } catch {
        identified = null;
      }
      // A credential that does not check out makes the caller anonymous here, not refused.
      if (identified instanceof Promise) identified = identified.catch(() => null);
      withIdentity(identified, done, (identity) => {
        request.identity = identity;
      });
    };

    const identifiedGuard = (access: AccessLevel): onRequestHookHandler =>
      function accessGuard(request, _reply, done) {
        withIdentity(identify(request), done, (identity) => {
          if (!identity) throw errors.unauthorized(resolve ? 'Missing bearer token' : 'This service answers requests forwarded by the gateway only');
          if (access === 'admin' && identity.role !== 'admin') throw errors.forbidden('Admin access required');
          if (access === 'dashboard' && identity.audience !== 'dashboard') throw errors.forbidden('A dashboard token is required for this route');
          request.identity = identity;
        });
      };

    const guard = (access: AccessLevel): onRequestHookHandler | undefined => {
      switch (access) {
        case 'public':
          return undefined;
        case 'internal':
          return internalGuard;
        case 'optional':
          return optionalGuard;
        default:
          return identifiedGuard(access);
      }
    };

    app.addHook('onRoute', (route) => {
      const declared = route.config?.access;
      const access: AccessLevel = declared ?? (PUBLIC_PREFIXES.some((p) => route.url.startsWith(p)) ? 'public' : 'internal');
      const hook = guard(access);
      if (!hook) return;
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [hook, ...existing];
    });
  },
  { name: 'crawl-access-control' },
);
