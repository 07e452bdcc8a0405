import type { JobFinishedEvent, Monitor, MonitorEvent, MonitorPausedReason } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export const OUTBOX_COLLECTION = 'outbox';

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

/** A monitor's rule fired: the event as `GET /monitors/:id/events` lists it. */
export interface MonitorTriggeredOutboxDoc extends Document {
  type: 'monitor.triggered';
  payload: MonitorEvent;
  organizationId: string;
  createdAt: string;
  deliveredAt: string | null;
  attempts: number;
}

/** A monitor paused itself (a run would have passed its monthly budget): the monitor as it was then. */
export interface MonitorPausedEvent {
  monitor: Monitor;
  organizationId: string;
  projectId: string;
  reason: MonitorPausedReason;
  message: string;
  occurredAt: string;
}

export interface MonitorPausedOutboxDoc extends Document {
  type: 'monitor.paused';
  payload: MonitorPausedEvent;
  organizationId: string;
  createdAt: string;
  deliveredAt: string | null;
  attempts: number;
}

export type AnyOutboxDoc = OutboxDoc | ScheduleFailedOutboxDoc | MonitorTriggeredOutboxDoc | MonitorPausedOutboxDoc;

/** Catalog's outbox: appended once per key, read oldest first until marked delivered. */
export class OutboxRepository {
  readonly #outbox: Collection<AnyOutboxDoc>;

  constructor(store: DocumentStore) {
    this.#outbox = store.collection<AnyOutboxDoc>(OUTBOX_COLLECTION);
  }

  /** Both pending reads: `deliveredAt` (and the type) by equality, then oldest first. */
  async init(): Promise<void> {
    await this.#outbox.ensureIndexes([
      { keys: { deliveredAt: 1, createdAt: 1, _id: 1 }, name: 'undelivered_created_id' },
      { keys: { deliveredAt: 1, type: 1, createdAt: 1, _id: 1 }, name: 'undelivered_type_created_id' },
    ]);
  }

  /** Inserts the entry under its key. @returns false when the key is taken (nothing is written). */
  async appendOnce(doc: AnyOutboxDoc): Promise<boolean> {
    try {
      await this.#outbox.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Undelivered job-finished entries, oldest first. */
  pendingJobFinished(limit: number): Promise<OutboxDoc[]> {
    return this.#outbox.find({ deliveredAt: null, type: 'job.finished' }, { sort: { createdAt: 1, _id: 1 }, limit }) as Promise<OutboxDoc[]>;
  }

  /** Undelivered entries of every type, oldest first. */
  pendingAll(limit: number): Promise<AnyOutboxDoc[]> {
    return this.#outbox.find({ deliveredAt: null }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  /** @returns false when no entry has this id. */
  async markDelivered(id: string, at: string): Promise<boolean> {
    return (await this.#outbox.updateOne({ _id: id }, { $set: { deliveredAt: at }, $inc: { attempts: 1 } })) !== null;
  }
}
