import { defineRoutes } from './route-spec.ts';

/** Public routes owned by billing (usage, credit packages, checkout, referrals, billing admin). */
export const BillingRoutes = defineRoutes({});
