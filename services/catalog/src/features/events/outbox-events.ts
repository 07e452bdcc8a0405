import { EventEmitter } from 'node:events';
import type { JobFinishedEvent, MonitorEvent } from '@crawl/contracts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { AnyOutboxDoc, MonitorPausedEvent, OutboxDoc, OutboxRepository, ScheduleFailedEvent } from './outbox-repository.ts';

export type { AnyOutboxDoc, MonitorPausedEvent, OutboxDoc, ScheduleFailedEvent, ScheduleFailedOutboxDoc } from './outbox-repository.ts';

export type JobFinishedListener = (event: JobFinishedEvent) => void | Promise<void>;

const RECORDED_TYPES = ['job.finished', 'schedule.failed', 'monitor.triggered', 'monitor.paused'] as const;

/**
 * The events catalog writes to its outbox (a job finished, a scheduled run failed, a monitor's
 * rule fired, a monitor paused itself): each written
 * once to the outbox collection (the durable record the webhook deliverer works from) and
 * announced in-process to listeners. Not the live job events of `job-events/`, which stream a
 * job's progress to a client.
 */
export class OutboxEvents {
  readonly #outbox: OutboxRepository;
  readonly #emitter = new EventEmitter();
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: { outbox: OutboxRepository }) {
    this.#outbox = parts.outbox;
    this.#logger = resources.logger;
  }

  onJobFinished(listener: JobFinishedListener): () => void {
    const wrapped = (event: JobFinishedEvent) => {
      Promise.resolve()
        .then(() => listener(event))
        .catch((error: unknown) => this.#logger.error({ err: error, jobId: event.jobId }, 'job-finished listener failed'));
    };
    this.#emitter.on('job.finished', wrapped);
    return () => this.#emitter.off('job.finished', wrapped);
  }

  /** Idempotent: the outbox key is the job id, so a job finishes (and is announced) once. */
  jobFinished(event: JobFinishedEvent): Promise<boolean> {
    return this.#append({ _id: `job.finished:${event.jobId}`, type: 'job.finished', payload: event, ...this.#fresh(event.organizationId, event.occurredAt) });
  }

  /** Idempotent per schedule run (the key holds the run time). */
  scheduleFailed(event: ScheduleFailedEvent): Promise<boolean> {
    return this.#append({
      _id: `schedule.failed:${event.scheduleId}:${event.occurredAt}`,
      type: 'schedule.failed',
      payload: event,
      ...this.#fresh(event.organizationId, event.occurredAt),
    });
  }

  /** Idempotent per monitor event (the key is its id). */
  monitorTriggered(event: MonitorEvent): Promise<boolean> {
    return this.#append({
      _id: `monitor.triggered:${event.id}`,
      type: 'monitor.triggered',
      payload: event,
      ...this.#fresh(event.organizationId, event.createdAt),
    });
  }

  /** Idempotent per pause (the key holds its time). */
  monitorPaused(event: MonitorPausedEvent): Promise<boolean> {
    return this.#append({
      _id: `monitor.paused:${event.monitor.id}:${event.occurredAt}`,
      type: 'monitor.paused',
      payload: event,
      ...this.#fresh(event.organizationId, event.occurredAt),
    });
  }

  #fresh(organizationId: string, createdAt: string) {
    return { organizationId, createdAt, deliveredAt: null, attempts: 0 };
  }

  /** Appends once per key; a repeat is a no-op that reports false and notifies nobody. */
  async #append(doc: AnyOutboxDoc): Promise<boolean> {
    const appended = await this.#outbox.appendOnce(doc);
    if (appended) this.#emitter.emit(doc.type, doc.payload);
    return appended;
  }

  /** Called when any event was recorded (the webhook dispatcher fans out at once). */
  onRecorded(listener: () => void): () => void {
    for (const type of RECORDED_TYPES) this.#emitter.on(type, listener);
    return () => {
      for (const type of RECORDED_TYPES) this.#emitter.off(type, listener);
    };
  }

  /** Undelivered job-finished events, oldest first. */
  pending(limit = 100): Promise<OutboxDoc[]> {
    return this.#outbox.pendingJobFinished(limit);
  }

  /** Undelivered events of every type (job finished, schedule failed, monitor triggered or paused), oldest first. */
  pendingAll(limit = 100): Promise<AnyOutboxDoc[]> {
    return this.#outbox.pendingAll(limit);
  }

  async markDelivered(id: string, at: string): Promise<void> {
    await this.#outbox.markDelivered(id, at);
  }
}
