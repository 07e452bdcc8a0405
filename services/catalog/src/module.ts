import { defineModule, type ServiceModule } from '@crawl/runtime';
import { catalogOf, createCatalog, registerCatalog, type CatalogOptions } from './catalog.ts';
import { CatalogConfig } from './config.ts';
import { catalogRoutes } from './plugin.ts';

/**
 * Catalog: projects, jobs and targets, result sets, exports, schedules, audit. Billing reserves
 * and settles credits; the crawler-worker claims and reports targets over the internal API.
 */
export function createCatalogModule(options: CatalogOptions = {}): ServiceModule<CatalogConfig> {
  return defineModule<CatalogConfig>({
    name: 'catalog',
    ownsData: true,
    dependencies: ['billing'],
    configSchema: CatalogConfig,
    async init(context) {
      const catalog = await createCatalog(context, options);
      registerCatalog(context, catalog);
      let timer: NodeJS.Timeout | undefined;
      let webhookTimer: NodeJS.Timeout | undefined;
      let stopListening: (() => void) | undefined;
      let stopFollowingJobEnds: (() => void) | undefined;
      let stopDelivering: (() => void) | undefined;
      let deliveryTimer: NodeJS.Timeout | undefined;
      let stopWatchingQueue: (() => void) | undefined;
      let running: Promise<void> | undefined;
      const tick = () => {
        if (running) return;
        running = catalog.maintenance
          .tick()
          .catch((error: unknown) => context.logger.error({ err: error }, 'catalog background tick failed'))
          .finally(() => {
            running = undefined;
          });
      };
      return {
        routes: catalogRoutes(catalog),
        async start() {
          await catalog.maintenance.recover();
          // A Redis restarted empty or flushed while we run: enqueue again within seconds.
          stopWatchingQueue = catalog.progress.requeueWhenQueueLost();
          // A monitor's confirmation is decided as soon as its job ends (the tick catches any this misses).
          stopFollowingJobEnds = catalog.events.onJobFinished((event) => catalog.monitors.jobFinished(event.jobId));
          // Destinations: a finished job naming one is written there now; retries come due on a timer.
          stopDelivering = catalog.events.onJobFinished((event) => catalog.destinations.deliveries.jobFinished(event));
          deliveryTimer = setInterval(() => {
            catalog.destinations.deliveries.runDue().catch((error: unknown) => context.logger.error({ err: error }, 'destination deliveries failed'));
          }, context.config.SCHEDULER_TICK_MS);
          deliveryTimer.unref();
          timer = setInterval(tick, context.config.SCHEDULER_TICK_MS);
          timer.unref();
          // Webhooks: consume the delivery queue here; fan out and dispatch when an event is
          // recorded and on an interval (retries come due, leases of dead workers expire).
          await catalog.webhooks.startWorker();
          if (catalog.webhooks.autoDispatch) {
            stopListening = catalog.events.onRecorded(() => catalog.webhooks.kick());
            webhookTimer = setInterval(() => catalog.webhooks.kick(), context.config.WEBHOOK_DISPATCH_INTERVAL_MS);
            webhookTimer.unref();
            catalog.webhooks.kick();
          }
        },
        async stop() {
          if (timer) clearInterval(timer);
          if (webhookTimer) clearInterval(webhookTimer);
          if (deliveryTimer) clearInterval(deliveryTimer);
          stopDelivering?.();
          stopListening?.();
          stopFollowingJobEnds?.();
          stopWatchingQueue?.();
          // Open event streams end now (clients resume with Last-Event-ID), or the server would wait for them.
          catalog.jobEvents.closeAll();
          catalog.jobChanges.close();
          await catalog.webhooks.stop();
          await running;
          await catalog.destinations.deliveries.idle();
        },
      };
    },
  });
}

export const catalogModule = createCatalogModule();
export { catalogOf };
