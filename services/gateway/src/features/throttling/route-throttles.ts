import type { RateLimitPolicy } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';

type Limiter = (request: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;

function emailOf(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

/** What a policy counts by; a request without that key (no email in the body, no `:id`) is not counted. */
function keyOf(policy: RateLimitPolicy, request: FastifyRequest): string | undefined {
  switch (policy.key) {
    case 'ip':
      return request.ip;
    case 'identity':
      return request.identity?.userId ?? request.ip;
    case 'email':
      return emailOf(request);
    case 'ip+email': {
      const email = emailOf(request);
      return email === undefined ? undefined : `${request.ip}|${email}`;
    }
    case 'organization+id': {
      // Within the caller's organization: another tenant probing the id cannot spend the owner's budget.
      const id = (request.params as { id?: unknown } | undefined)?.id;
      return typeof id === 'string' ? `${request.identity?.organizationId ?? request.ip}|${id}` : undefined;
    }
  }
}

/**
 * Applies every throttle a route declares in `config.rateLimits`, each with its own counter
 * (policy name in the key), so one route can be limited per address and per email at once.
 */
export function installRouteThrottles(app: FastifyInstance, overrides: ReadonlyMap<string, number>): void {
  const createLimiter = (app as unknown as { createRateLimit(options: object): Limiter }).createRateLimit.bind(app);
  const limiters = new Map<string, Limiter>();
  const limiterFor = (policy: RateLimitPolicy): Limiter => {
    let limiter = limiters.get(policy.name);
    if (!limiter) {
      limiter = createLimiter({
        max: overrides.get(policy.name) ?? policy.max,
        timeWindow: policy.timeWindowMs,
        exponentialBackoff: policy.backoff === true,
        keyGenerator: (request: FastifyRequest) => `${policy.name}:${keyOf(policy, request) ?? ''}`,
      });
      limiters.set(policy.name, limiter);
    }
    return limiter;
  };

  app.addHook('onRoute', (route) => {
    const policies = route.config?.rateLimits;
    if (!policies || policies.length === 0) return;
    const hook: preHandlerAsyncHookHandler = async function throttle(request, reply) {
      for (const policy of policies) {
        if (keyOf(policy, request) === undefined) continue;
        const result = await limiterFor(policy)(request);
        if (!result.isAllowed && result.isExceeded) {
          void reply.header('retry-after', String(result.ttlInSeconds ?? 1));
          throw errors.rateLimited(result.ttlInSeconds ?? 1);
        }
      }
    };
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [hook, ...existing];
  });
}
