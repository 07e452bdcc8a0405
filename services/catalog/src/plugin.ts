import type { FastifyInstance } from 'fastify';
import type { Catalog } from './catalog.ts';
import { auditRoutes } from './features/audit/audit-routes.ts';
import { exportRoutes } from './features/exports/export-routes.ts';
import { jobEventRoutes } from './features/job-events/job-event-routes.ts';
import { jobRoutes } from './features/jobs/job-routes.ts';
import { projectRoutes } from './features/projects/project-routes.ts';
import { resultRoutes } from './features/results/result-routes.ts';
import { scheduleRoutes } from './features/schedules/schedule-routes.ts';
import { webhookRoutes } from './features/webhooks/webhook-routes.ts';

/** Catalog's routes in their own encapsulated context, one file per feature. */
export function catalogRoutes(catalog: Catalog) {
  return async function routes(app: FastifyInstance): Promise<void> {
    projectRoutes(app, catalog.projects);
    jobRoutes(app, catalog.jobs, catalog.queuePositions);
    jobEventRoutes(app, catalog.jobEvents);
    resultRoutes(app, catalog.jobs, catalog.results);
    exportRoutes(app, catalog);
    scheduleRoutes(app, catalog.schedules);
    auditRoutes(app, catalog.audit);
    webhookRoutes(app, catalog.webhooks);
  };
}
