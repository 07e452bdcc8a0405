import type { FastifyInstance } from 'fastify';
import type { Billing } from './billing.ts';
import { accountRoutes } from './features/accounts/index.ts';
import { crawlerAdminRoutes, type CrawlerAdmin } from './features/crawler/index.ts';
import { ledgerRoutes } from './features/ledger/index.ts';
import { packageRoutes } from './features/packages/index.ts';
import { quotaRoutes } from './features/quotas/index.ts';
import { reconcilerRoutes } from './features/reconciler/index.ts';
import { referralRoutes } from './features/referrals/index.ts';
import { reservationRoutes } from './features/reservations/index.ts';

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
