import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { ScheduleService } from './schedule-service.ts';

/** A project's cron schedules: create, list, enable/disable or change. */
export function scheduleRoutes(app: FastifyInstance, schedules: ScheduleService): void {
  routeFromSpec(app, CatalogRoutes.createSchedule, async (request, reply) => {
    const schedule = await schedules.create(callerOf(request), request.params.projectId, request.body, request.id);
    return reply.code(201).send({ data: schedules.view(schedule) });
  });
  routeFromSpec(app, CatalogRoutes.listSchedules, async (request) => {
    const { schedules: page, meta } = await schedules.list(callerOf(request).organizationId, request.params.projectId, request.query);
    return { data: page.map((schedule) => schedules.view(schedule)), meta };
  });
  routeFromSpec(app, CatalogRoutes.updateSchedule, async (request) => {
    return { data: schedules.view(await schedules.update(callerOf(request), request.params.id, request.body, request.id)) };
  });
}
