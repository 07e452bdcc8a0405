import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

export interface RateLimitStoreOptions {
  /** Counters in Redis when set, so limits hold across gateway replicas; else in this process. */
  redisUrl?: string;
  redisPrefix: string;
}

/**
 * Registers @fastify/rate-limit without global limits: each route's own throttles are installed
 * by `installRouteThrottles`. An unreachable Redis lets requests through (logged) rather than
 * failing every request.
 */
export async function registerRateLimitStore(app: FastifyInstance, options: RateLimitStoreOptions): Promise<void> {
  if (!options.redisUrl) {
    await app.register(rateLimit, { global: false });
    return;
  }
  // Loaded only here: a gateway without Redis (the all-in-one) never loads the Redis driver.
  const { closeRedis, openRedis } = await import('@crawl/redis');
  const redis = openRedis(options.redisUrl, { name: 'crawl-gateway-rate-limit', commandTimeoutMs: 500 });
  app.addHook('onClose', async () => closeRedis(redis));
  await app.register(rateLimit, { global: false, redis, nameSpace: `${options.redisPrefix}:rl:`, skipOnError: true });
}
