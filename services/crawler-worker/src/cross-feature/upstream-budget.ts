import { commaList } from '@crawl/config';
import type { RedisClient } from '@crawl/redis';
import { ProxyPool } from '../features/egress/index.ts';
import { PerIdentityRateLimiter, SharedRateLimiter, TokenBucketRateLimiter } from '../features/rate-limit/index.ts';

export interface UpstreamBudgetSettings {
  UPSTREAM_RATE_PER_MINUTE: number;
  UPSTREAM_BURST: number;
  PROXY_URLS: string;
  PROXY_REST_AFTER_BLOCKS: number;
  PROXY_REST_MS: number;
}

/**
 * The upstream budget of a worker: its egress identities (the proxies, or the direct connection)
 * and one rate budget per identity. With Redis (`redis` and its key namespace) each identity's
 * budget, block strikes and cool-downs are shared by every replica; without, they are this
 * process's own.
 */
export async function openUpstreamBudget(config: UpstreamBudgetSettings, shared?: { redis: RedisClient; key: string }) {
  // Loaded only with Redis: a worker without it (the all-in-one) never loads the Redis driver.
  const redis = shared ? await import('@crawl/redis') : undefined;
  const proxies = new ProxyPool({
    urls: commaList(config.PROXY_URLS),
    restAfterBlocks: config.PROXY_REST_AFTER_BLOCKS,
    restMs: config.PROXY_REST_MS,
    shared:
      shared && redis
        ? new redis.RedisEgressHealth({ redis: shared.redis, key: shared.key, restAfterBlocks: config.PROXY_REST_AFTER_BLOCKS, restMs: config.PROXY_REST_MS })
        : undefined,
  });
  const limiter = new PerIdentityRateLimiter({
    requestsPerMinute: config.UPSTREAM_RATE_PER_MINUTE,
    create: (identity, requestsPerMinute) =>
      shared && redis
        ? new SharedRateLimiter({
            budget: new redis.RedisRateBudget({
              redis: shared.redis,
              key: shared.key,
              identity,
              defaultPerMinute: config.UPSTREAM_RATE_PER_MINUTE,
              burst: config.UPSTREAM_BURST,
            }),
            requestsPerMinute,
          })
        : new TokenBucketRateLimiter({ requestsPerMinute, burst: config.UPSTREAM_BURST }),
  });
  return { proxies, limiter };
}
