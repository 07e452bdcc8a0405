import { EventEmitter } from 'node:events';
import type { JobFinishedEvent } from '@crawl/contracts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { AnyOutboxDoc, OutboxDoc, OutboxRepository, ScheduleFailedEvent } from './outbox-repository.ts';

export type { AnyOutboxDoc, OutboxDoc, ScheduleFailedEvent, ScheduleFailedOutboxDoc } from './outbox-repository.ts';

export type JobFinishedListener = (event: JobFinishedEvent) => void | Promise<void>;

/**
 * The events catalog writes to its outbox (a job finished, a scheduled run failed): each written
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
    return this.#append(`job.finished:${event.jobId}`, 'job.finished', event);
  }

  /** Idempotent per schedule run (the key holds the run time). */
  scheduleFailed(event: ScheduleFailedEvent): Promise<boolean> {
    return this.#append(`schedule.failed:${event.scheduleId}:${event.occurredAt}`, 'schedule.failed', event);
  }

  /** Appends once per key; a repeat is a no-op that reports false and notifies nobody. */
  async #append(key: string, type: 'job.finished' | 'schedule.failed', event: JobFinishedEvent | ScheduleFailedEvent): Promise<boolean> {
    const appended = await this.#outbox.appendOnce({
      _id: key,
      type,
      payload: event,
      organizationId: event.organizationId,
      createdAt: event.occurredAt,
      deliveredAt: null,
      attempts: 0,
    } as AnyOutboxDoc);
    if (appended) this.#emitter.emit(type, event);
    return appended;
  }

  /** Called when any event was recorded (the webhook dispatcher fans out at once). */
  onRecorded(listener: () => void): () => void {
    this.#emitter.on('job.finished', listener);
    this.#emitter.on('schedule.failed', listener);
    return () => {
      this.#emitter.off('job.finished', listener);
      this.#emitter.off('schedule.failed', listener);
    };
  }

  /** Undelivered job-finished events, oldest first. */
  pending(limit = 100): Promise<OutboxDoc[]> {
    return this.#outbox.pendingJobFinished(limit);
  }

  /** Undelivered events of every type (job finished, schedule failed), oldest first. */
  pendingAll(limit = 100): Promise<AnyOutboxDoc[]> {
    return this.#outbox.pendingAll(limit);
  }

  async markDelivered(id: string, at: string): Promise<void> {
    await this.#outbox.markDelivered(id, at);
  }
}
