import { createHash } from 'node:crypto';
import type { Job, MonitorPausedWebhookData, MonitorTriggeredWebhookData, Schedule, WebhookEventType } from '@crawl/contracts';
import type { AnyOutboxDoc } from '../events/index.ts';
import { toJobView, type JobLifecycle } from '../jobs/index.ts';
import { toScheduleView, type ScheduleService } from '../schedules/index.ts';

/** The `webhook-id` of an outbox entry: one per logical event, the same for every endpoint. */
export function eventIdFor(outboxId: string): string {
  return `evt_${createHash('sha256').update(outboxId).digest('hex').slice(0, 26)}`;
}

export function webhookEventType(event: AnyOutboxDoc): WebhookEventType {
  return event.type === 'job.finished' ? `job.${event.payload.status}` : event.type;
}

/** A delivery's `data`: the job, the schedule or the monitor event as the API shows it, and where to read more. */
type EventData =
  | { job: Job; links: { job: string; results: string; export: string } }
  | { schedule: Schedule; error: { code: string; message: string }; links: { schedule: string } }
  | MonitorTriggeredWebhookData
  | MonitorPausedWebhookData;

/** Builds the JSON body every attempt of an outbox event sends (the job or schedule as the API shows it). */
export class EventPayloads {
  readonly #jobs: Pick<JobLifecycle, 'getOwned'>;
  readonly #schedules: Pick<ScheduleService, 'getOwned'>;
  readonly #publicBaseUrl: string;

  constructor(options: { jobs: Pick<JobLifecycle, 'getOwned'>; schedules: Pick<ScheduleService, 'getOwned'>; publicBaseUrl: string }) {
    this.#jobs = options.jobs;
    this.#schedules = options.schedules;
    this.#publicBaseUrl = options.publicBaseUrl;
  }

  /** @returns the body, or null when the job or schedule is gone. */
  async body(event: AnyOutboxDoc, eventId: string, type: WebhookEventType): Promise<string | null> {
    const data = await this.#data(event);
    return data ? JSON.stringify({ id: eventId, type, timestamp: event.createdAt, data }) : null;
  }

  #link(path: string): string {
    return `${this.#publicBaseUrl.replace(/\/$/, '')}${path}`;
  }

  async #data(event: AnyOutboxDoc): Promise<EventData | null> {
    if (event.type === 'job.finished') {
      const job = await this.#jobs.getOwned(event.organizationId, event.payload.jobId).catch(() => null);
      if (!job) return null;
      const base = `/jobs/${encodeURIComponent(job._id)}`;
      return { job: toJobView(job), links: { job: this.#link(base), results: this.#link(`${base}/results`), export: this.#link(`${base}/export`) } };
    }
    // Monitor events carry what they say: the event as listed, the monitor as it was when it paused.
    if (event.type === 'monitor.triggered') {
      const monitorEvent = event.payload;
      const monitor = this.#link(`/monitors/${encodeURIComponent(monitorEvent.monitorId)}`);
      const job = this.#link(`/jobs/${encodeURIComponent(monitorEvent.jobId)}`);
      return { monitorEvent, links: { monitor, monitorEvents: `${monitor}/events`, job, results: `${job}/results` } };
    }
    if (event.type === 'monitor.paused') {
      const { monitor, reason, message } = event.payload;
      return { monitor, reason, message, links: { monitor: this.#link(`/monitors/${encodeURIComponent(monitor.id)}`) } };
    }
    const schedule = await this.#schedules.getOwned(event.organizationId, event.payload.scheduleId).catch(() => null);
    if (!schedule) return null;
    return {
      schedule: toScheduleView(schedule),
      error: event.payload.error,
      links: { schedule: this.#link(`/projects/${encodeURIComponent(schedule.projectId)}/schedules`) },
    };
  }
}
