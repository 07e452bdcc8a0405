import { EventEmitter } from 'node:events';
import type { JobFinishedEvent } from '@crawl/contracts';
import type { Logger } from '../../shared.ts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export interface OutboxDoc extends Document {
  type: 'job.finished';
  payload: JobFinishedEvent;
  organizationId: string;
  createdAt: string;
  deliveredAt: string | null;
  attempts: number;
}

/** A scheduled run whose job could not be created (quota, credits, archived project …). */
export interface ScheduleFailedEvent {
  scheduleId: string;
  organizationId: string;
  projectId: string;
  error: { code: string; message: string };
  occurredAt: string;
}

/** The same outbox holds schedule failures for webhooks; `pending()` keeps returning job events only. */
export interface ScheduleFailedOutboxDoc extends Document {
  type: 'schedule.failed';
  payload: ScheduleFailedEvent;
  organizationId: string;
  createdAt: string;
  deliveredAt: string | null;
  attempts: number;
}

export type AnyOutboxDoc = OutboxDoc | ScheduleFailedOutboxDoc;

export type JobFinishedListener = (event: JobFinishedEvent) => void | Promise<void>;

/**
 * Job-finished events: written once per job to an outbox collection (the durable record the
 * webhook deliverer works from) and announced in-process to listeners.
 */
export class JobEvents {
  readonly #outbox: Collection<OutboxDoc>;
  readonly #emitter = new EventEmitter();
  readonly #logger: Logger | undefined;

  constructor(options: { store: DocumentStore; logger?: Logger }) {
    this.#outbox = options.store.collection<OutboxDoc>('outbox');
    this.#logger = options.logger;
  }

  async init(): Promise<void> {
    await this.#outbox.ensureIndexes([{ keys: { deliveredAt: 1, createdAt: 1 }, name: 'undelivered' }]);
  }

  onJobFinished(listener: JobFinishedListener): () => void {
    const wrapped = (event: JobFinishedEvent) => {
      Promise.resolve()
        .then(() => listener(event))
        .catch((error: unknown) => this.#logger?.error({ err: error, jobId: event.jobId }, 'job-finished listener failed'));
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
    try {
      await (this.#outbox as unknown as Collection<AnyOutboxDoc>).insertOne({
        _id: key,
        type,
        payload: event,
        organizationId: event.organizationId,
        createdAt: event.occurredAt,
        deliveredAt: null,
        attempts: 0,
      } as AnyOutboxDoc);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
    this.#emitter.emit(type, event);
    return true;
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
  async pending(limit = 100): Promise<OutboxDoc[]> {
    return this.#outbox.find({ deliveredAt: null, type: 'job.finished' }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  /** Undelivered events of every type (job finished, schedule failed), oldest first. */
  async pendingAll(limit = 100): Promise<AnyOutboxDoc[]> {
    return (this.#outbox as unknown as Collection<AnyOutboxDoc>).find({ deliveredAt: null }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  async markDelivered(id: string, at: string): Promise<void> {
    await this.#outbox.updateOne({ _id: id }, { $set: { deliveredAt: at }, $inc: { attempts: 1 } });
  }
}
