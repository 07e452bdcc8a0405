import { CrawlerRoutes, type CrawlTask, type QueueStatsView, type SetCrawlerRateBody } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { routeFromSpec } from '@crawl/modules';
import type { WorkQueue } from '@crawl/queue';
import type { AuditClient } from '@crawl/service-client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateSetting } from '../rate-limit/rate-setting.ts';

export interface AdminRoutesOptions {
  rate: RateSetting;
  queue: WorkQueue<CrawlTask>;
  queueBackend: QueueStatsView['backend'];
  audit?: () => Pick<AuditClient, 'record'>;
  logger?: { warn(obj: object, msg?: string): void };
}

/** /admin/crawler/rate and /admin/queue/stats (admin tokens only; throttled at the gateway). */
export function adminRoutes(options: AdminRoutesOptions) {
  return async function crawlerAdminPlugin(app: FastifyInstance): Promise<void> {
    routeFromSpec(app, CrawlerRoutes.getCrawlerRate, async () => ({ data: options.rate.view() }));

    routeFromSpec(app, CrawlerRoutes.setCrawlerRate, async (request: FastifyRequest<{ Body: SetCrawlerRateBody }>) => {
      const identity = request.identity;
      if (!identity) throw errors.unauthorized();
      const before = options.rate.view().requestsPerMinute;
      const view = await options.rate.set(request.body.requestsPerMinute, identity.userId);
      try {
        await options.audit?.().record({
          organizationId: identity.organizationId,
          actorUserId: identity.userId,
          action: 'crawler.rate.update',
          resourceType: 'crawler',
          resourceId: 'upstream-rate',
          requestId: request.id,
          metadata: { from: before, to: view.requestsPerMinute },
        });
      } catch (error) {
        options.logger?.warn({ err: error }, 'recording the crawler rate change in the audit log failed');
      }
      return { data: view };
    });

    routeFromSpec(app, CrawlerRoutes.queueStats, async () => {
      const stats = await options.queue.stats();
      const view: QueueStatsView = { queue: options.queue.name, backend: options.queueBackend, ...stats };
      return { data: view };
    });
  };
}
