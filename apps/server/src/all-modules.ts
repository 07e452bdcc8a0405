import type { ServiceName } from '@crawl/contracts';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import type { AnyServiceModule } from '@crawl/runtime';

/**
 * Every service module by name, loaded on demand: a process only loads the code of its own
 * targets. `--target=all` is simply all of them. The gateway serves the dashboard's build, whose
 * place only `@crawl/dashboard` knows.
 */
export const MODULE_LOADERS: Record<ServiceName, () => Promise<AnyServiceModule>> = {
  gateway: async () => (await import('@crawl/gateway')).createGatewayModule({ dashboardDist: DASHBOARD_DIST }),
  auth: async () => (await import('@crawl/auth')).authModule,
  catalog: async () => (await import('@crawl/catalog')).catalogModule,
  billing: async () => (await import('@crawl/billing')).billingModule,
  'crawler-worker': async () => (await import('@crawl/crawler-worker')).crawlerWorkerModule,
};

export function modulesFor(targets: readonly ServiceName[]): Promise<AnyServiceModule[]> {
  return Promise.all(targets.map((target) => MODULE_LOADERS[target]()));
}
