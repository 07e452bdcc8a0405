import type { FastifyInstance } from 'fastify';
import type { BillingServices } from './composition.ts';
import { accountRoutes } from './features/accounts/index.ts';
import { crawlerAdminRoutes, type CrawlerAdmin } from './features/crawler/index.ts';
import { ledgerRoutes } from './features/ledger/index.ts';
import { packageRoutes } from './features/packages/index.ts';
import { quotaRoutes } from './features/quotas/index.ts';
import { reconcilerRoutes } from './features/reconciler/index.ts';
import { referralRoutes } from './features/referrals/index.ts';
import { reservationRoutes } from './features/reservations/index.ts';

/** The crawl queue, as the process opened it: only the crawler admin's queue statistics read it. */
export type CrawlQueueAccess = Pick<CrawlerAdmin, 'queue' | 'queueBackend'>;

/** Billing's routes in their own encapsulated context; each feature's routes get the services they act on. */
export function billingPlugin(billing: BillingServices, crawlQueue: CrawlQueueAccess) {
  const { operations } = billing;
  return async function billingRoutes(app: FastifyInstance): Promise<void> {
    accountRoutes(app, operations.openAccount);
    quotaRoutes(app, {
      accounts: billing.accounts,
      usageReport: operations.usageReport,
      dailyCredits: operations.dailyCredits,
      consumeExport: operations.consumeExport,
    });
    packageRoutes(app, { checkout: billing.checkout, ledger: billing.ledger });
    referralRoutes(app, billing.referrals);
    ledgerRoutes(app, { adjustCredits: operations.adjustCredits, ledgerPage: operations.ledgerPage });
    reservationRoutes(app, billing.reservations);
    reconcilerRoutes(app, billing.reconciler);
    crawlerAdminRoutes(app, { settings: billing.crawlerSettings, audit: billing.audit, ...crawlQueue });
  };
}
