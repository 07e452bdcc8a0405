import type { MonitorEvent } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export const MONITOR_EVENTS_COLLECTION = 'monitor_events';

/** A stored `monitor.triggered` event: the event as listed, and the target of its job it is about (for the job's stream). */
export interface MonitorEventDoc extends Document, Omit<MonitorEvent, 'id'> {
  targetIndex: number;
}

export function toMonitorEventView(doc: MonitorEventDoc): MonitorEvent {
  const { _id, targetIndex: _targetIndex, ...event } = doc;
  return { id: _id, ...event };
}

/** The most events one job's stream reads (a run of 1,000 targets with several rules each stays under it). */
const MAX_EVENTS_PER_JOB = 5_000;

/** `monitor.triggered` events: written once per id, listed per monitor newest first, read per job for its stream. */
export class MonitorEventRepository {
  readonly #events: Collection<MonitorEventDoc>;

  constructor(store: DocumentStore) {
    this.#events = store.collection<MonitorEventDoc>(MONITOR_EVENTS_COLLECTION);
  }

  /** The monitor's list (equality fields, then newest first) and a job's events in the order they were written. */
  async init(): Promise<void> {
    await this.#events.ensureIndexes([
      { keys: { organizationId: 1, monitorId: 1, createdAt: -1, _id: -1 }, name: 'org_monitor_created_id' },
      { keys: { jobId: 1, createdAt: 1, _id: 1 }, name: 'job_created_id' },
    ]);
  }

  /** @returns false when the event is already stored (the same firing, applied again). */
  async insertOnce(doc: MonitorEventDoc): Promise<boolean> {
    try {
      await this.#events.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  findById(id: string): Promise<MonitorEventDoc | null> {
    return this.#events.findOne({ _id: id });
  }

  async listPage(
    scope: { organizationId: string; monitorId: string },
    page: { offset: number; limit: number },
  ): Promise<{ events: MonitorEventDoc[]; total: number }> {
    const filter = { organizationId: scope.organizationId, monitorId: scope.monitorId };
    const [events, total] = await Promise.all([
      this.#events.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#events.count(filter),
    ]);
    return { events, total };
  }

  /** The events whose current value a job read, oldest first. */
  forJob(jobId: string): Promise<MonitorEventDoc[]> {
    return this.#events.find({ jobId }, { sort: { createdAt: 1, _id: 1 }, limit: MAX_EVENTS_PER_JOB });
  }

  async removeForMonitor(organizationId: string, monitorId: string): Promise<void> {
    await this.#events.deleteMany({ organizationId, monitorId });
  }
}
