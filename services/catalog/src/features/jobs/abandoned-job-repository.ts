import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';

export const ABANDONED_JOBS_COLLECTION = 'abandoned_job_ids';

interface AbandonedJobDoc {
  _id: string;
  abandonedAt: string;
}

/**
 * Job ids billing gave up on: their reservation is released because catalog had no such job. Each
 * side writes before it reads the other's record (the mark here, the job in `jobs`), so of a
 * reconciler asking and a create still storing the same id, at least one sees the other: the
 * reconciler finds the job, or the create finds the mark and takes its job back. Read and written
 * by `_id` only; one small document per orphaned reservation.
 */
export class AbandonedJobRepository {
  readonly #ids: Collection<AbandonedJobDoc>;

  constructor(store: DocumentStore) {
    this.#ids = store.collection<AbandonedJobDoc>(ABANDONED_JOBS_COLLECTION);
  }

  /** Idempotent: the first mark's time is kept. */
  async mark(jobId: string, now: string): Promise<void> {
    try {
      await this.#ids.insertOne({ _id: jobId, abandonedAt: now });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  async isMarked(jobId: string): Promise<boolean> {
    return (await this.#ids.findOne({ _id: jobId })) !== null;
  }
}
