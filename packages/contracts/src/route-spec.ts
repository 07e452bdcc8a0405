import type { Static, TSchema } from '@sinclair/typebox';
import type { AccessLevel } from './identity.ts';
import type { ServiceName } from './services.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * A per-route throttle. `key` says what is counted: the client address, the body's email, the
 * caller, the address and email together (`ip+email`), or the route's `:id` within the caller's
 * organization (`organization+id`, one budget per resource).
 */
export interface RateLimitPolicy {
  readonly name: string;
  readonly max: number;
  readonly timeWindowMs: number;
  readonly key: 'ip' | 'email' | 'identity' | 'ip+email' | 'organization+id';
  /** Each request over the limit doubles the wait (with REDIS_URL; in-process, it restarts the window). */
  readonly backoff?: boolean;
}

/**
 * One public route: the single source for the owning service's handler, the gateway's policy
 * (auth, throttles, forwarding) and the OpenAPI document.
 */
export interface RouteSpec {
  readonly method: HttpMethod;
  readonly url: string;
  readonly owner: ServiceName;
  readonly access: AccessLevel;
  readonly rateLimits?: readonly RateLimitPolicy[];
  /** Success is a file or a stream rather than JSON (exports). */
  readonly raw?: boolean;
  /**
   * What a raw route sends on success, by media type, for the OpenAPI document only: the handler
   * streams it, so no serializer ever reads these schemas.
   */
  readonly rawResponse?: {
    readonly status: number;
    readonly description: string;
    readonly content: Readonly<Record<string, TSchema>>;
    readonly headers?: Readonly<Record<string, TSchema>>;
  };
  /**
   * The answer carries a credential or a secret (tokens, signing secrets): it is sent with
   * `Cache-Control: no-store` so no browser, proxy or CDN keeps a copy.
   */
  readonly noStore?: boolean;
  /**
   * The body is read as a stream, never whole (uploads): bodies of these media types reach the
   * handler unread, and the gateway forwards them as they arrive, refusing more than `maxBytes`.
   */
  readonly streamedBody?: { readonly contentTypes: readonly string[]; readonly maxBytes: number };
  readonly schema: {
    readonly summary: string;
    readonly tags: readonly string[];
    readonly description?: string;
    readonly body?: TSchema;
    readonly querystring?: TSchema;
    readonly params?: TSchema;
    readonly response: Readonly<Record<number, TSchema>>;
  };
}

/** Identity-preserving helper so route tables keep their literal keys. */
export function defineRoutes<const T extends Record<string, RouteSpec>>(routes: T): T {
  return routes;
}

/**
 * One service-to-service route: the single source for the owner's handler types, the path its
 * typed client calls and the answer that client reads. The response schemas type both ends and,
 * as on public routes, filter what the handler returns.
 */
export interface InternalRouteSpec {
  readonly method: HttpMethod;
  /** The route pattern (`/internal/catalog/jobs/:jobId/state`); `pathOf` fills it in. */
  readonly url: string;
  readonly access: 'internal';
  /** Larger than Fastify's default for bodies that come from our own services only. */
  readonly bodyLimit?: number;
  readonly schema: {
    readonly body?: TSchema;
    readonly querystring?: TSchema;
    readonly params?: TSchema;
    readonly response?: Readonly<Record<number, TSchema>>;
  };
}

/** Identity-preserving helper so internal route tables keep their literal keys and schemas. */
export function defineInternalRoutes<const T extends Record<string, InternalRouteSpec>>(routes: T): T {
  return routes;
}

type PathParams<S> = S extends { readonly schema: { readonly params: infer P extends TSchema } } ? Static<P> : Record<string, never>;

/** A route's path with each `:name` replaced by its encoded value; the values are typed by the params schema. */
export function pathOf<const S extends InternalRouteSpec | RouteSpec>(spec: S, params: PathParams<S>): string {
  const values = params as Readonly<Record<string, string | number | undefined>>;
  return spec.url.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${spec.url}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
