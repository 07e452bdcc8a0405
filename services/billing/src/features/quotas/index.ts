/** Monthly quotas: the counters and usage marks, the limit rules, the usage report's shape, the usage and export routes. */
export { remainingOf } from './limits.ts';
export { monthKey, nextMonthStart } from './month.ts';
export { quotaRoutes, type QuotaServices } from './quota-routes.ts';
export { attemptNumber, LEGACY_ATTEMPT, UsageRepository } from './usage-repository.ts';
export { CountSuperseded, UsageCounters } from './usage-service.ts';
export type { UsageReport } from './usage-view.ts';
