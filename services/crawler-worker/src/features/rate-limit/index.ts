/**
 * The upstream rate: the limiter port every upstream request takes a slot from, its budgets (an
 * in-process token bucket, one shared through Redis, one of either per egress identity), and the
 * admin-set rate read from billing.
 */
export { PerIdentityRateLimiter, type PerIdentityRateLimiterOptions } from './per-identity-rate-limiter.ts';
export { RateSetting } from './rate-setting.ts';
export { SharedRateLimiter, type SharedRateBudget } from './shared-rate-limiter.ts';
export { TokenBucketRateLimiter } from './token-bucket-rate-limiter.ts';
export type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';
