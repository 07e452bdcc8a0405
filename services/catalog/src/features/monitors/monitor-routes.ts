import { MonitorRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { toJobView } from '../jobs/index.ts';
import { toMonitorEventView } from './event-repository.ts';
import { toMonitorView, type MonitorDoc } from './monitor-model.ts';
import type { Monitors } from './monitors.ts';

/** The public monitor routes (table: packages/contracts/src/monitor-routes.ts). */
export function monitorRoutes(app: FastifyInstance, monitors: Pick<Monitors, 'service' | 'runner'>): void {
  const { service, runner } = monitors;
  const R = MonitorRoutes;
  const view = (doc: MonitorDoc) => toMonitorView(doc, service.now());

  routeFromSpec(app, R.createMonitor, async (request, reply) => {
    const monitor = await service.create(callerOf(request), request.params.projectId, request.body, request.id);
    return reply.code(201).send({ data: view(monitor) });
  });
  routeFromSpec(app, R.listMonitors, async (request) => {
    const { monitors: page, meta } = await service.list(callerOf(request).organizationId, request.params.projectId, request.query);
    return { data: page.map(view), meta };
  });
  routeFromSpec(app, R.getMonitor, async (request) => {
    return { data: view(await service.getOwned(callerOf(request).organizationId, request.params.id)) };
  });
  routeFromSpec(app, R.updateMonitor, async (request) => {
    return { data: view(await service.update(callerOf(request), request.params.id, request.body, request.id)) };
  });
  routeFromSpec(app, R.pauseMonitor, async (request) => {
    return { data: view(await service.pause(callerOf(request), request.params.id, request.id)) };
  });
  routeFromSpec(app, R.resumeMonitor, async (request) => {
    return { data: view(await service.resume(callerOf(request), request.params.id, request.id)) };
  });
  routeFromSpec(app, R.deleteMonitor, async (request, reply) => {
    await service.remove(callerOf(request), request.params.id, request.id);
    return reply.code(204).send(null);
  });
  routeFromSpec(app, R.runMonitor, async (request, reply) => {
    const caller = callerOf(request);
    const monitor = await service.getOwned(caller.organizationId, request.params.id);
    const job = await runner.runNow(caller, monitor, request.id);
    return reply.code(201).send({ data: toJobView(job) });
  });
  routeFromSpec(app, R.listMonitorEvents, async (request) => {
    const { events, meta } = await service.events(callerOf(request).organizationId, request.params.id, request.query);
    return { data: events.map(toMonitorEventView), meta };
  });
}
