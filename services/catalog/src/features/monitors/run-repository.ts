import type { Collection, Document, DocumentStore } from '@crawl/storage';
import type { MonitorRun } from '../jobs/index.ts';

export const MONITOR_RUNS_COLLECTION = 'monitor_runs';

/**
 * A job of a monitor, by the job's id: written before the job is created (its id is chosen
 * first), so the first report of the job already finds it. What tells a report's changes apart
 * from those of every other job at the cost of one read by key.
 */
export interface MonitorRunDoc extends Document {
  monitorId: string;
  organizationId: string;
  kind: MonitorRun;
  /** A confirmation's request (confirmation-repository.ts). */
  confirmationId?: string;
  createdAt: string;
}

export class MonitorRunRepository {
  readonly #runs: Collection<MonitorRunDoc>;

  constructor(store: DocumentStore) {
    this.#runs = store.collection<MonitorRunDoc>(MONITOR_RUNS_COLLECTION);
  }

  /** A monitor's runs are removed with it. */
  async init(): Promise<void> {
    await this.#runs.ensureIndexes([{ keys: { monitorId: 1 }, name: 'monitor' }]);
  }

  async insert(doc: MonitorRunDoc): Promise<void> {
    await this.#runs.insertOne(doc);
  }

  find(jobId: string): Promise<MonitorRunDoc | null> {
    return this.#runs.findOne({ _id: jobId });
  }

  /** A run whose job was not created. */
  async remove(jobId: string): Promise<void> {
    await this.#runs.deleteOne({ _id: jobId });
  }

  async removeForMonitor(monitorId: string): Promise<void> {
    await this.#runs.deleteMany({ monitorId });
  }
}
