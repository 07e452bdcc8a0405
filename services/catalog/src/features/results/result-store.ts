import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export interface ResultDoc extends Document {
  jobId: string;
  targetIndex: number;
  seq: number;
  item: Record<string, unknown>;
}

const WRITE_CHUNK = 50;

/**
 * A job's result set: one document per item, keyed by (job, target, position). Writing a
 * target's items again overwrites the same keys and drops the tail, so a re-run never duplicates.
 */
export class ResultStore {
  readonly #results: Collection<ResultDoc>;

  constructor(store: DocumentStore) {
    this.#results = store.collection<ResultDoc>('results');
  }

  async init(): Promise<void> {
    await this.#results.ensureIndexes([{ keys: { jobId: 1, targetIndex: 1, seq: 1 }, name: 'job_target_seq' }]);
  }

  async replaceTarget(jobId: string, targetIndex: number, items: readonly Record<string, unknown>[]): Promise<void> {
    // Plain inserts are much cheaper than upserts; a concurrent re-run writing the same keys
    // falls back to overwriting them, so the result is the same items exactly once.
    await this.#results.deleteMany({ jobId, targetIndex });
    for (let start = 0; start < items.length; start += WRITE_CHUNK) {
      await Promise.all(
        items.slice(start, start + WRITE_CHUNK).map(async (item, offset) => {
          const seq = start + offset;
          const doc: ResultDoc = { _id: `${jobId}:${targetIndex}:${seq}`, jobId, targetIndex, seq, item };
          try {
            await this.#results.insertOne(doc);
          } catch (error) {
            if (!(error instanceof DuplicateKeyError)) throw error;
            await this.#results.updateOne({ _id: doc._id }, { $set: { jobId, targetIndex, seq, item } }, { upsert: true });
          }
        }),
      );
    }
    await this.#results.deleteMany({ jobId, targetIndex, seq: { $gte: items.length } });
  }

  async clearTarget(jobId: string, targetIndex: number): Promise<void> {
    await this.#results.deleteMany({ jobId, targetIndex });
  }

  async page(jobId: string, page: number, pageSize: number): Promise<{ items: Record<string, unknown>[]; total: number }> {
    const [docs, total] = await Promise.all([
      this.#results.find({ jobId }, { sort: { targetIndex: 1, seq: 1 }, skip: (page - 1) * pageSize, limit: pageSize }),
      this.#results.count({ jobId }),
    ]);
    return { items: docs.map((d) => d.item), total };
  }

  async *items(jobId: string): AsyncIterable<Record<string, unknown>> {
    for await (const doc of this.#results.stream({ jobId }, { sort: { targetIndex: 1, seq: 1 } })) yield doc.item;
  }
}
