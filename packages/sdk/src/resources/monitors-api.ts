import {
  type CreateMonitorBody,
  type ListMonitorEventsQuery,
  type ListMonitorsQuery,
  type Monitor,
  type MonitorEvent,
  MonitorRoutes,
  type UpdateMonitorBody,
} from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';
import type { Job } from '../types.ts';
import { normalizeJob } from '../variants.ts';

/**
 * A project's monitors (docs/monitors.md): scheduled checks of products or search results whose
 * rules fire `monitor.triggered` events when a tracked value changes. Each run is an ordinary job.
 */
export class MonitorsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Checks the definition as a job's targets and config are checked; 400 names every problem in `details`. */
  async create(projectId: string, body: CreateMonitorBody, options?: CallOptions): Promise<Monitor> {
    return (await this.transport.call(MonitorRoutes.createMonitor, { params: { projectId }, body }, options)).data;
  }

  /** One page of a project's monitors, newest first, with `meta.total`. */
  async list(projectId: string, query: ListMonitorsQuery = {}, options?: CallOptions): Promise<Required<ListPage<Monitor>>> {
    return this.transport.call(MonitorRoutes.listMonitors, { params: { projectId }, query }, options);
  }

  /** Every monitor of a project, newest first, fetched a page at a time. */
  iterate(projectId: string, query: Omit<ListMonitorsQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<Monitor, void, undefined> {
    return eachItem((offset) => this.list(projectId, { limit: 100, ...query, offset }, options));
  }

  async get(id: string, options?: CallOptions): Promise<Monitor> {
    return (await this.transport.call(MonitorRoutes.getMonitor, { params: { id } }, options)).data;
  }

  /** Changes what is given (the type stays); the result is checked as a create is. */
  async update(id: string, body: UpdateMonitorBody, options?: CallOptions): Promise<Monitor> {
    return (await this.transport.call(MonitorRoutes.updateMonitor, { params: { id }, body }, options)).data;
  }

  /** No scheduled runs until it is resumed. */
  async pause(id: string, options?: CallOptions): Promise<Monitor> {
    return (await this.transport.call(MonitorRoutes.pauseMonitor, { params: { id } }, options)).data;
  }

  /** Resumes a paused monitor, also one its budget paused; its next run counts from now. */
  async resume(id: string, options?: CallOptions): Promise<Monitor> {
    return (await this.transport.call(MonitorRoutes.resumeMonitor, { params: { id } }, options)).data;
  }

  /** Deletes the monitor and its events; its jobs stay. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.call(MonitorRoutes.deleteMonitor, { params: { id } }, options);
  }

  /**
   * Runs it once now (also while paused) and answers with the run's job, queued: follow it with
   * `jobs.wait` or `jobs.events` (which carry its `monitor` events). 402 and 403 as a job create;
   * 409 when the run would pass `maxCreditsPerMonth` (the monitor then pauses).
   */
  async run(id: string, options?: CallOptions): Promise<Job> {
    return normalizeJob((await this.transport.call(MonitorRoutes.runMonitor, { params: { id } }, options)).data);
  }

  /** One page of the monitor's `monitor.triggered` events, newest first, with `meta.total`. */
  async events(id: string, query: ListMonitorEventsQuery = {}, options?: CallOptions): Promise<Required<ListPage<MonitorEvent>>> {
    return this.transport.call(MonitorRoutes.listMonitorEvents, { params: { id }, query }, options);
  }

  /**
   * Every event of the monitor, newest first, fetched a page at a time. An event that fires
   * while the loop runs moves the older ones one place down, so the next page would repeat the
   * last one: events already yielded are skipped.
   */
  async *iterateEvents(id: string, query: Omit<ListMonitorEventsQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<MonitorEvent, void, undefined> {
    const seen = new Set<string>();
    for await (const event of eachItem((offset) => this.events(id, { limit: 100, ...query, offset }, options))) {
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      yield event;
    }
  }
}
