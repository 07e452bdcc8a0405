import type { FastifyInstance } from 'fastify';
import type { Billing } from './billing.ts';
import { accountRoutes } from './features/accounts/account-routes.ts';
import { crawlerAdminRoutes, type CrawlerAdmin } from './features/crawler/crawler-routes.ts';
import { ledgerRoutes } from './features/ledger/ledger-routes.ts';
import { packageRoutes } from './features/packages/package-routes.ts';
import { quotaRoutes } from './features/quotas/quota-routes.ts';
import { reconcilerRoutes } from './features/reconciler/reconciler-routes.ts';
import { referralRoutes } from './features/referrals/referral-routes.ts';
import { reservationRoutes } from './features/reservations/reservation-routes.ts';

/** Billing's routes in their own encapsulated context. */
export function billingPlugin(billing: Billing, crawler: CrawlerAdmin) {
  return async function billingRoutes(app: FastifyInstance): Promise<void> {
    accountRoutes(app, billing);
    quotaRoutes(app, billing);
    packageRoutes(app, billing);
    referralRoutes(app, billing);
    ledgerRoutes(app, billing);
    reservationRoutes(app, billing);
    reconcilerRoutes(app, billing);
    crawlerAdminRoutes(app, billing, crawler);
  };
}
