import type { TSchema } from '@sinclair/typebox';
import type { AccessLevel } from './identity.ts';
import type { ServiceName } from './services.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A per-route throttle. `key` says what is counted: the client address or a body field. */
export interface RateLimitPolicy {
  readonly name: string;
  readonly max: number;
  readonly timeWindowMs: number;
  readonly key: 'ip' | 'email' | 'identity';
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
