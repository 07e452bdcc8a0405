import { defineModule, type ServiceModule } from '@crawl/modules';
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
    dependencies: ['billing'],
    configSchema: CatalogConfig,
    async init(context) {
      const catalog = await createCatalog(context, options);
      registerCatalog(context, catalog);
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> | undefined;
      const tick = () => {
        if (running) return;
        running = catalog
          .tick()
          .catch((error: unknown) => context.logger.error({ err: error }, 'catalog background tick failed'))
          .finally(() => {
            running = undefined;
          });
      };
      return {
        routes: catalogRoutes(catalog),
        async start() {
          // The store survives a restart, the in-process queue does not: enqueue open targets
          // again (idempotent by task id), finish jobs whose targets all ended, retry settlements.
          const requeued = await catalog.jobs.requeueOpenTargets();
          await catalog.jobs.settleUnsettled();
          if (requeued > 0) context.logger.info({ tasks: requeued }, 're-enqueued open targets of unfinished jobs');
          timer = setInterval(tick, context.config.SCHEDULER_TICK_MS);
          timer.unref();
        },
        async stop() {
          if (timer) clearInterval(timer);
          await running;
        },
      };
    },
  });
}

export const catalogModule = createCatalogModule();
export { catalogOf };
