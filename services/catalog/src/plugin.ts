import type { FastifyInstance } from 'fastify';
import type { Catalog } from './catalog.ts';
import { estimateRoutes } from './cross-feature/estimate-routes.ts';
import { auditRoutes } from './features/audit/index.ts';
import { destinationRoutes } from './features/destinations/index.ts';
import { exportRoutes } from './features/exports/index.ts';
import { historyRoutes } from './features/history/index.ts';
import { jobEventRoutes } from './features/job-events/index.ts';
import { jobRoutes } from './features/jobs/index.ts';
import { monitorRoutes } from './features/monitors/index.ts';
import { pageCacheRoutes } from './features/page-cache/index.ts';
import { projectRoutes } from './features/projects/index.ts';
import { resultRoutes } from './features/results/index.ts';
import { scheduleRoutes } from './features/schedules/index.ts';
import { targetListRoutes } from './features/target-lists/index.ts';
import { webhookRoutes } from './features/webhooks/index.ts';

/** Catalog's routes in their own encapsulated context, one call per feature with the services it acts on. */
export function catalogRoutes(catalog: Catalog) {
  return async function routes(app: FastifyInstance): Promise<void> {
    projectRoutes(app, catalog.projects);
    jobRoutes(app, { lifecycle: catalog.jobs, progress: catalog.progress, reconciliation: catalog.reconciliation, view: catalog.jobView });
    estimateRoutes(app, catalog.estimates);
    jobEventRoutes(app, catalog.jobEvents);
    resultRoutes(app, { jobs: catalog.jobs, results: catalog.results });
    exportRoutes(app, catalog.exports);
    scheduleRoutes(app, catalog.schedules);
    auditRoutes(app, catalog.audit);
    webhookRoutes(app, catalog.webhooks);
    destinationRoutes(app, catalog.destinations);
    historyRoutes(app, catalog.history);
    monitorRoutes(app, catalog.monitors);
    targetListRoutes(app, catalog.targetLists);
    pageCacheRoutes(app, catalog.pageCache);
  };
}
