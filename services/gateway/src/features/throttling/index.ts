/** Per-route throttles from the contracts' policies, counted in Redis when there is one. */
export { registerRateLimitStore, type RateLimitStoreOptions } from './rate-limit-store.ts';
export { installRouteThrottles } from './route-throttles.ts';
