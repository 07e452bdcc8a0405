import type { ResultRecord } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';
import { positionOf, targetEnd } from './result-layout.ts';
import { migrationsOf, type MigrationDoc } from '../../migrations.ts';

export const RESULTS_COLLECTION = 'results';
export const RESULT_COLUMNS_COLLECTION = 'result_columns';
const POSITION_BACKFILL = 'results.position';

/** One result item. `_id` is `${jobId}:${targetIndex}:${seq}`, so rewriting a target reuses its keys. */
export interface ResultDoc extends Document {
  jobId: string;
  targetIndex: number;
  seq: number;
  /** `positionOf(targetIndex, seq)`: the row's place in the result set (see result-layout.ts). */
  position: number;
  item: ResultRecord;
}

/** A row stored before positions existed; `init` gives it one. */
type LegacyResultDoc = Omit<ResultDoc, 'position'> & { position?: number };

/** The CSV column names one target's items have, in first-seen order, kept at write time. */
export interface ResultColumnsDoc extends Document {
  jobId: string;
  targetIndex: number;
  columns: string[];
}

const INSERT_BATCH = 1000;
/** Per-row writes (collision fallback, backfill) in flight at once. */
const UPSERT_CHUNK = 50;
const BACKFILL_BATCH = 500;

const rowId = (jobId: string, targetIndex: number, seq: number): string => `${jobId}:${targetIndex}:${seq}`;
const columnsId = (jobId: string, targetIndex: number): string => `${jobId}:${targetIndex}`;

/** Result rows and their per-target column records: every query on them lives here. */
export class ResultRepository {
  readonly #rows: Collection<ResultDoc>;
  readonly #columns: Collection<ResultColumnsDoc>;
  readonly #migrations: Collection<MigrationDoc>;

  constructor(store: DocumentStore) {
    // Exports read the items' JSON text in bulk: the embedded store keeps it ready (no parse).
    this.#rows = store.collection<ResultDoc>(RESULTS_COLLECTION, { streamedFields: ['item'] });
    this.#columns = store.collection<ResultColumnsDoc>(RESULT_COLUMNS_COLLECTION);
    this.#migrations = migrationsOf(store);
  }

  /** Indexes, then positions for rows written before they existed (once per database). */
  async init(): Promise<void> {
    await this.#rows.ensureIndexes([{ keys: { jobId: 1, position: 1 }, name: 'job_position' }]);
    await this.#columns.ensureIndexes([{ keys: { jobId: 1, targetIndex: 1 }, name: 'job_target' }]);
    await this.backfillPositions();
  }

  /**
   * Gives every row without a `position` its position, walking `_id` order in batches (a keyset
   * walk: rows updated behind it never shift it), then records that the database is done so later
   * starts skip the walk. Idempotent, so racing replicas are harmless. @returns rows updated.
   */
  async backfillPositions(options: { batchSize?: number; now?: () => string } = {}): Promise<number> {
    const batchSize = options.batchSize ?? BACKFILL_BATCH;
    if (await this.#migrations.findOne({ _id: POSITION_BACKFILL })) return 0;
    const legacy = this.#rows as unknown as Collection<LegacyResultDoc>;
    let after = '';
    let updated = 0;
    for (;;) {
      const batch = await legacy.find({ position: { $exists: false }, _id: { $gt: after } }, { sort: { _id: 1 }, limit: batchSize });
      if (batch.length === 0) break;
      // Each row gets its own value: a plain (not read-modify-write) update per row, no lock
      // needed, a few at a time so a slow server is not handed hundreds at once.
      for (let start = 0; start < batch.length; start += UPSERT_CHUNK) {
        await Promise.all(
          batch
            .slice(start, start + UPSERT_CHUNK)
            .map((row) => legacy.updateMany({ _id: row._id, position: { $exists: false } }, { $set: { position: positionOf(row.targetIndex, row.seq) } })),
        );
      }
      updated += batch.length;
      after = batch[batch.length - 1]?._id ?? after;
    }
    await this.#migrations.updateOne(
      { _id: POSITION_BACKFILL },
      { $set: { completedAt: (options.now ?? (() => new Date().toISOString()))(), rows: updated } },
      { upsert: true },
    );
    return updated;
  }

  /**
   * Replaces a target's rows with `items` (positions `seq` 0…n-1): drop its range, insert in
   * batches. A concurrent writer of the same target makes an insert collide; then every row is
   * written by key (idempotent) and the tail beyond `items` dropped, so the target ends up with
   * one writer's items exactly once.
   */
  async writeTarget(jobId: string, targetIndex: number, items: readonly ResultRecord[]): Promise<void> {
    const docs = items.map(
      (item, seq): ResultDoc => ({ _id: rowId(jobId, targetIndex, seq), jobId, targetIndex, seq, position: positionOf(targetIndex, seq), item }),
    );
    await this.#rows.deleteMany({ jobId, position: { $gte: positionOf(targetIndex, 0), $lt: targetEnd(targetIndex) } });
    try {
      for (let start = 0; start < docs.length; start += INSERT_BATCH) await this.#rows.insertMany(docs.slice(start, start + INSERT_BATCH));
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      for (let start = 0; start < docs.length; start += UPSERT_CHUNK) {
        await Promise.all(
          docs.slice(start, start + UPSERT_CHUNK).map(({ _id, ...fields }) => this.#rows.updateOne({ _id }, { $set: fields }, { upsert: true })),
        );
      }
    }
    if (docs.length > 0) await this.#rows.deleteMany({ jobId, position: { $gte: positionOf(targetIndex, docs.length), $lt: targetEnd(targetIndex) } });
  }

  async clearTarget(jobId: string, targetIndex: number): Promise<void> {
    await this.#rows.deleteMany({ jobId, position: { $gte: positionOf(targetIndex, 0), $lt: targetEnd(targetIndex) } });
  }

  /** Rows with `from <= position < to`, in position order: one walk of the `(jobId, position)` index. */
  readRange(jobId: string, from: number, to: number): Promise<ResultDoc[]> {
    return this.#rows.find({ jobId, position: { $gte: from, $lt: to } }, { sort: { position: 1 } });
  }

  /** The stored JSON text of every item of a job, in position order, never parsed, a batch at a time. */
  streamItemJson(jobId: string): AsyncIterable<string[]> {
    return this.#rows.streamJson({ jobId }, 'item', { sort: { position: 1 } });
  }

  /** Rows stored for a job, whatever its document says (checks and tests; pages never count). */
  countRows(jobId: string): Promise<number> {
    return this.#rows.count({ jobId });
  }

  async writeColumns(jobId: string, targetIndex: number, columns: readonly string[]): Promise<void> {
    await this.#columns.updateOne({ _id: columnsId(jobId, targetIndex) }, { $set: { jobId, targetIndex, columns: [...columns] } }, { upsert: true });
  }

  async clearColumns(jobId: string, targetIndex: number): Promise<void> {
    await this.#columns.deleteOne({ _id: columnsId(jobId, targetIndex) });
  }

  /** A job's column records in target order. */
  columnRecords(jobId: string): Promise<ResultColumnsDoc[]> {
    return this.#columns.find({ jobId }, { sort: { targetIndex: 1 } });
  }
}
