/** What several billing features share; it imports no feature. */
export { bestEffortAudit, type RecordAudit } from './audit.ts';
export { backOff } from './back-off.ts';
export type { BillingResources, Logger } from './resources.ts';
