import { ConfigError } from '@crawl/config';
import { crawlQueueDefinition } from '@crawl/contracts';
import { defineModule } from '@crawl/runtime';
import { AuditClient, CatalogJobStateClient } from '@crawl/service-client';
import { composeBilling } from './composition.ts';
import { BillingConfig, billingConfigProblems } from './config.ts';
import type { CrawlQueueStats } from './features/crawler/index.ts';
import type { BillingResources } from './features/shared/index.ts';
import { billingPlugin } from './plugin.ts';
import { billingRepositories, ensureBillingIndexes } from './repositories.ts';

/** Credits (ledger, reservations, settlement), monthly quotas and usage, packages and checkout, referrals, billing admin (crawler rate, queue stats). */
export const billingModule = defineModule<BillingConfig>({
  name: 'billing',
  ownsData: true,
  configSchema: BillingConfig,
  async init(context) {
    const problems = billingConfigProblems(context.config);
    if (problems.length > 0) throw new ConfigError(problems);
    const catalogReachable = () => context.isLocal('catalog') || Boolean(context.runtime.CATALOG_URL);
    const resources: BillingResources = { store: context.store, clock: context.clock, logger: context.logger, metrics: context.metrics };
    const repositories = billingRepositories(context.store);
    const billing = composeBilling(resources, repositories, context.config, {
      audit: async (event) => {
        if (!catalogReachable()) throw new Error('catalog is not reachable from this process (set CATALOG_URL)');
        await new AuditClient(context.client('catalog')).record(event);
      },
      ...(catalogReachable() ? { jobState: (jobId: string) => new CatalogJobStateClient(context.client('catalog')).abandonIfMissing(jobId) } : {}),
    });
    await ensureBillingIndexes(repositories);
    // Opened on first use: only the queue statistics need it.
    let crawlQueue: CrawlQueueStats | undefined;
    let timer: NodeJS.Timeout | undefined;
    let orphanTimer: NodeJS.Timeout | undefined;
    return {
      routes: billingPlugin(billing, {
        queue: () => (crawlQueue ??= context.queues.queue(crawlQueueDefinition())),
        queueBackend: context.queues.kind,
      }),
      async start() {
        // Holds of jobs that were never stored (catalog died mid-create) go back within a minute,
        // between the full passes.
        if (context.config.RESERVATION_ORPHAN_CHECK_INTERVAL_MS > 0) {
          orphanTimer = setInterval(() => {
            billing.reconciler.releaseOrphans().catch((error: unknown) => context.logger.error({ err: error }, 'billing orphan check failed'));
          }, context.config.RESERVATION_ORPHAN_CHECK_INTERVAL_MS);
          orphanTimer.unref();
        }
        if (context.config.RECONCILE_INTERVAL_MS <= 0) return;
        timer = setInterval(() => {
          billing.reconciler.reconcile().catch((error: unknown) => context.logger.error({ err: error }, 'billing reconciler pass failed'));
        }, context.config.RECONCILE_INTERVAL_MS);
        timer.unref();
      },
      async stop() {
        if (timer) clearInterval(timer);
        if (orphanTimer) clearInterval(orphanTimer);
        timer = undefined;
        orphanTimer = undefined;
      },
    };
  },
});
