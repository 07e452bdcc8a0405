import {
  AuditPaths,
  CatalogRoutes,
  RecordAuditBody,
  ReportTargetBody,
  type AuditQuery,
  type CreateJobBody,
  type CreateProjectBody,
  type CreateScheduleBody,
  type ExportFormat,
  type Identity,
  type ListJobsQuery,
  type ListProjectsQuery,
  type ResultsQuery,
  type UpdateProjectBody,
  type UpdateScheduleBody,
  CATALOG_LIMITS,
} from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { routeFromSpec } from '@crawl/modules';
import { abortSignalFor } from '@crawl/service-client';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Catalog } from './catalog.ts';
import { exportJobResults } from './features/exports/job-export.ts';
import { toAuditView } from './features/audit/audit-log.ts';
import { toJobView } from './features/jobs/job-model.ts';
import { toProjectView } from './features/projects/project-service.ts';
import { toScheduleView } from './features/schedules/schedule-service.ts';
import { registerWebhookRoutes } from './features/webhooks/webhook-routes.ts';

function caller(request: FastifyRequest): Identity {
  if (!request.identity) throw errors.unauthorized();
  return request.identity;
}

const TargetParams = Type.Object(
  { jobId: Type.String({ minLength: 1, maxLength: 64 }), index: Type.Integer({ minimum: 0, maximum: CATALOG_LIMITS.maxTargetsPerJob }) },
  { additionalProperties: false },
);
const JobIdParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/** Report bodies carry up to 5000 items; they come from our own worker. */
const REPORT_BODY_LIMIT = 32 * 1024 * 1024;

export function catalogRoutes(catalog: Catalog) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const R = CatalogRoutes;

    // Projects
    routeFromSpec(app, R.listProjects, async (request: FastifyRequest<{ Querystring: ListProjectsQuery }>) => {
      const projects = await catalog.projects.list(caller(request).organizationId, request.query.archived);
      return { data: projects.map(toProjectView) };
    });
    routeFromSpec(app, R.createProject, async (request: FastifyRequest<{ Body: CreateProjectBody }>, reply) => {
      const project = await catalog.projects.create(caller(request), request.body.name, request.id);
      return reply.code(201).send({ data: toProjectView(project) });
    });
    routeFromSpec(app, R.updateProject, async (request: FastifyRequest<{ Params: { id: string }; Body: UpdateProjectBody }>) => {
      const project = await catalog.projects.update(caller(request), request.params.id, request.body, request.id);
      return { data: toProjectView(project) };
    });

    // Jobs
    routeFromSpec(app, R.createJob, async (request: FastifyRequest<{ Params: { projectId: string }; Body: CreateJobBody }>, reply) => {
      const identity = caller(request);
      const job = await catalog.jobs.create(identity, request.params.projectId, request.body, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
      return reply.code(201).send({ data: toJobView(job) });
    });
    routeFromSpec(app, R.listJobs, async (request: FastifyRequest<{ Params: { projectId: string }; Querystring: ListJobsQuery }>) => {
      const { jobs, meta } = await catalog.jobs.list(caller(request).organizationId, request.params.projectId, request.query);
      return { data: jobs.map(toJobView), meta };
    });
    routeFromSpec(app, R.getJob, async (request: FastifyRequest<{ Params: { id: string } }>) => {
      return { data: toJobView(await catalog.jobs.getOwned(caller(request).organizationId, request.params.id)) };
    });
    routeFromSpec(app, R.jobResults, async (request: FastifyRequest<{ Params: { id: string }; Querystring: ResultsQuery }>) => {
      const job = await catalog.jobs.getOwned(caller(request).organizationId, request.params.id);
      const pageSize = Math.min(request.query.pageSize ?? CATALOG_LIMITS.resultsDefaultPageSize, CATALOG_LIMITS.resultsMaxPageSize);
      const { cursor } = request.query;
      const { items, ...pagination } =
        cursor === undefined ? await catalog.results.page(job, request.query.page ?? 1, pageSize) : await catalog.results.pageFrom(job, cursor, pageSize);
      return { data: { items, pagination } };
    });
    routeFromSpec(app, R.exportJob, async (request: FastifyRequest<{ Params: { id: string }; Querystring: { format?: ExportFormat } }>, reply) => {
      const identity = caller(request);
      const format = request.query.format ?? 'json';
      const job = await catalog.jobs.getOwned(identity.organizationId, request.params.id);
      // Everything that can fail with an envelope happens before the first byte.
      await catalog.billing().consumeExport({ organizationId: identity.organizationId, jobId: job._id, format }, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
      await catalog.audit.recordQuietly({
        organizationId: identity.organizationId,
        actorUserId: identity.userId,
        action: 'job.export',
        resourceType: 'job',
        resourceId: job._id,
        requestId: request.id,
        metadata: { format },
      });
      const file = await exportJobResults(catalog.results, job, format);
      void reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="job-${job._id}.${format}"`)
        .header('cache-control', 'no-store');
      return reply.send(file);
    });
    routeFromSpec(app, R.retryJob, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const identity = caller(request);
      const job = await catalog.jobs.retry(identity, request.params.id, { requestId: request.id, identity, signal: abortSignalFor(reply.raw) });
      return reply.code(201).send({ data: toJobView(job) });
    });
    routeFromSpec(app, R.cancelJob, async (request: FastifyRequest<{ Params: { id: string } }>) => {
      return { data: toJobView(await catalog.jobs.cancel(caller(request), request.params.id, request.id)) };
    });

    // Schedules
    routeFromSpec(app, R.createSchedule, async (request: FastifyRequest<{ Params: { projectId: string }; Body: CreateScheduleBody }>, reply) => {
      const schedule = await catalog.schedules.create(caller(request), request.params.projectId, request.body, request.id);
      return reply.code(201).send({ data: toScheduleView(schedule) });
    });
    routeFromSpec(app, R.listSchedules, async (request: FastifyRequest<{ Params: { projectId: string } }>) => {
      const schedules = await catalog.schedules.list(caller(request).organizationId, request.params.projectId);
      return { data: schedules.map(toScheduleView) };
    });
    routeFromSpec(app, R.updateSchedule, async (request: FastifyRequest<{ Params: { id: string }; Body: UpdateScheduleBody }>) => {
      return { data: toScheduleView(await catalog.schedules.update(caller(request), request.params.id, request.body, request.id)) };
    });

    // Audit
    routeFromSpec(app, R.listAudit, async (request: FastifyRequest<{ Querystring: AuditQuery }>) => {
      return catalog.audit.list(caller(request).organizationId, request.query);
    });

    // Webhooks
    registerWebhookRoutes(app, catalog.webhooks);

    // Internal: the crawler-worker's claim/report, billing's reconciler, other services' audit events.
    app.post<{ Params: { jobId: string; index: number } }>(
      '/internal/catalog/jobs/:jobId/targets/:index/claim',
      { config: { access: 'internal' }, schema: { params: TargetParams } },
      async (request) => ({ data: await catalog.jobs.claimTarget(request.params.jobId, request.params.index) }),
    );
    app.post<{ Params: { jobId: string; index: number }; Body: ReportTargetBody }>(
      '/internal/catalog/jobs/:jobId/targets/:index/result',
      { config: { access: 'internal' }, bodyLimit: REPORT_BODY_LIMIT, schema: { params: TargetParams, body: ReportTargetBody } },
      async (request) => ({ data: await catalog.jobs.reportTarget(request.params.jobId, request.params.index, request.body) }),
    );
    app.get<{ Params: { jobId: string } }>(
      '/internal/catalog/jobs/:jobId/state',
      { config: { access: 'internal' }, schema: { params: JobIdParams } },
      async (request) => ({ data: await catalog.jobs.jobState(request.params.jobId) }),
    );
    app.post<{ Body: RecordAuditBody }>(AuditPaths.record, { config: { access: 'internal' }, schema: { body: RecordAuditBody } }, async (request, reply) => {
      const doc = await catalog.audit.record({ ...request.body, requestId: request.body.requestId ?? request.id });
      return reply.code(201).send({ data: toAuditView(doc) });
    });
  };
}
