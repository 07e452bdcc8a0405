import { BillingInternalRoutes, BillingRoutes, type QueueStatsView } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { RecordAudit } from '../shared/index.ts';
import type { CrawlerSettings } from './crawler-settings-service.ts';

/** The crawl queue as billing's admin sees it: counts only (structurally a WorkQueue of @crawl/queue). */
export interface CrawlQueueStats {
  readonly name: string;
  stats(): Promise<Omit<QueueStatsView, 'queue' | 'backend'>>;
}

export interface CrawlerAdmin {
  settings: CrawlerSettings;
  queue: () => CrawlQueueStats;
  queueBackend: QueueStatsView['backend'];
  /** A rate change is audited (best effort). */
  audit: RecordAudit;
}

/** /admin/crawler/rate, /admin/queue/stats (admin tokens only), the workers' internal read of the rate and report of their egress identities. */
export function crawlerAdminRoutes(app: FastifyInstance, crawler: CrawlerAdmin): void {
  routeFromSpec(app, BillingRoutes.getCrawlerRate, async () => ({ data: await crawler.settings.view() }));

  routeFromSpec(app, BillingRoutes.setCrawlerRate, async (request) => {
    const identity = callerOf(request);
    const before = (await crawler.settings.view()).requestsPerMinute;
    const view = await crawler.settings.set(request.body.requestsPerMinute, identity.userId);
    await crawler.audit({
      organizationId: identity.organizationId,
      actorUserId: identity.userId,
      action: 'crawler.rate.update',
      resourceType: 'crawler',
      resourceId: 'upstream-rate',
      requestId: request.id,
      metadata: { from: before, to: view.requestsPerMinute },
    });
    return { data: view };
  });

  routeFromSpec(app, BillingRoutes.queueStats, async () => {
    const queue = crawler.queue();
    const stats = await queue.stats();
    const view: QueueStatsView = { queue: queue.name, backend: crawler.queueBackend, ...stats };
    return { data: view };
  });

  routeFromSpec(app, BillingInternalRoutes.crawlerSettings, async () => ({ data: await crawler.settings.current() }));

  routeFromSpec(app, BillingInternalRoutes.reportCrawlerIdentities, async (request) => {
    await crawler.settings.reportIdentities(request.body);
    return { data: { identities: request.body.identities.length } };
  });
}
