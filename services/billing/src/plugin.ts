import type { FastifyInstance } from 'fastify';
import type { Billing } from './billing.ts';
import { adminRoutes } from './features/admin/admin-routes.ts';
import { crawlerAdminRoutes, type CrawlerAdmin } from './features/crawler/crawler-routes.ts';
import { internalRoutes } from './features/internal/internal-routes.ts';
import { packageRoutes } from './features/packages/package-routes.ts';
import { referralRoutes } from './features/referrals/referral-routes.ts';
import { usageRoutes } from './features/usage/usage-routes.ts';

/** Billing's routes in their own encapsulated context. */
export function billingPlugin(billing: Billing, crawler: CrawlerAdmin) {
  return async function billingRoutes(app: FastifyInstance): Promise<void> {
    usageRoutes(app, billing);
    packageRoutes(app, billing);
    referralRoutes(app, billing);
    adminRoutes(app, billing);
    crawlerAdminRoutes(app, billing, crawler);
    internalRoutes(app, billing);
  };
}
