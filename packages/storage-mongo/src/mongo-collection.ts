import type { Collection as DriverCollection, Db, Document as DriverDocument, FindCursor } from 'mongodb';
import {
  DuplicateKeyError,
  newId,
  StorageUnavailableError,
  type Collection,
  type Document,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type SortSpec,
  type Update,
} from '@crawl/storage';
import type { DocumentLocks } from './document-locks.ts';
import { translate } from './mongo-errors.ts';

const STREAM_BATCH = 500;
/** Documents of one updateMany updated at a time under their locks (FerretDB). */
const LOCKED_UPDATE_MANY_PARALLEL = 8;
/** How long past its own `maxTimeMS` an operation may take before the adapter stops waiting. */
const BACKSTOP_GRACE_MS = 2_000;

/** MongoDB rejects empty operator objects (`$set: {}`); drop them. */
function compact(update: Update): DriverDocument {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value && Object.keys(value).length > 0));
}

/** What is left of a budget that ends at `until` (epoch ms), as a `maxTimeMS` (at least 1). */
function remaining(until: number): number {
  return Math.max(1, Math.ceil(until - Date.now()));
}

export interface CollectionSettings {
  operationTimeoutMs: number;
  streamTimeoutMs: number;
  /** Present when the server's updates are not atomic (FerretDB v1). */
  locks: () => Promise<DocumentLocks | undefined>;
}

/** One collection of the store: every operation under a deadline, updates under document locks where the server needs them. */
export class MongoCollection<T extends Document> implements Collection<T> {
  readonly name: string;
  // The driver types `_id` as ObjectId; ours are strings, so the collection is untyped here.
  // biome-ignore lint/suspicious/noExplicitAny: documents of every collection, string `_id`s the driver's default types (ObjectId) do not allow.
  readonly #collection: DriverCollection<any>;
  readonly #settings: CollectionSettings;
  /** A TTL index the server would not build (FerretDB): its field and seconds, swept on inserts instead. */
  #sweptTtl: { field: string; seconds: number } | undefined;
  #ttlSweptAt = 0;

  constructor(db: Db, name: string, settings: CollectionSettings) {
    this.name = name;
    this.#collection = db.collection(name);
    this.#settings = settings;
  }

  /**
   * Runs one operation with a deadline: the server is told (`maxTimeMS`) and stops there; should it
   * not (FerretDB ignores it on update and delete), the caller stops waiting shortly after and gets
   * StorageUnavailableError (503) rather than hang.
   */
  async #run<R>(operation: (maxTimeMS: number, deadline: number) => Promise<R>, deadline = Date.now() + this.#settings.operationTimeoutMs): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const backstop = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new StorageUnavailableError(`Database operation on ${this.name} did not answer in time`)),
        deadline - Date.now() + BACKSTOP_GRACE_MS,
      );
    });
    try {
      return await Promise.race([operation(remaining(deadline), deadline), backstop]);
    } catch (error) {
      throw translate(error, this.name);
    } finally {
      clearTimeout(timer);
    }
  }

  async insertOne(doc: T): Promise<T> {
    await this.#run(async (maxTimeMS) => {
      await this.#collection.insertOne({ ...doc }, { maxTimeMS });
    });
    await this.#sweepExpired();
    return doc;
  }

  /** Where the server keeps no TTL index, expired documents go on inserts, at most once a second. */
  async #sweepExpired(force = false): Promise<void> {
    if (this.#sweptTtl === undefined) return;
    const now = Date.now();
    if (!force && now - this.#ttlSweptAt < 1_000) return;
    this.#ttlSweptAt = now;
    await this.deleteMany({ [this.#sweptTtl.field]: { $lte: new Date(now - this.#sweptTtl.seconds * 1_000) } });
  }

  insertMany(docs: readonly T[]): Promise<void> {
    if (docs.length === 0) return Promise.resolve();
    return this.#run(async (maxTimeMS) => {
      await this.#collection.insertMany(
        docs.map((doc) => ({ ...doc })),
        { ordered: true, maxTimeMS },
      );
    });
  }

  findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<T | null> {
    return this.#run(async (maxTimeMS) => (await this.#collection.findOne(filter, { maxTimeMS, ...(options.sort ? { sort: options.sort } : {}) })) as T | null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.#run(async (maxTimeMS) => (await this.#cursor(filter, options, { maxTimeMS }).toArray()) as unknown as T[]);
  }

  #cursor(filter: Filter, options: FindOptions, extra: { maxTimeMS: number; batchSize?: number; projection?: DriverDocument }): FindCursor<DriverDocument> {
    let cursor = this.#collection.find(filter, extra);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return cursor;
  }

  /**
   * Batches of STREAM_BATCH. The cursor's `maxTimeMS` is the stream budget: on MongoDB it bounds the
   * server time summed over every batch; FerretDB applies it to the first batch only.
   */
  async *#streamCursor(filter: Filter, options: FindOptions, projection?: DriverDocument): AsyncGenerator<DriverDocument> {
    const cursor = this.#cursor(filter, options, { maxTimeMS: this.#settings.streamTimeoutMs, batchSize: STREAM_BATCH, ...(projection ? { projection } : {}) });
    try {
      for await (const doc of cursor) yield doc;
    } catch (error) {
      throw translate(error, this.name);
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }

  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<T> {
    for await (const doc of this.#streamCursor(filter, options)) yield doc as T;
  }

  /** The cursor's documents in arrays of up to STREAM_BATCH. */
  async *#batches(filter: Filter, options: FindOptions, projection?: DriverDocument): AsyncGenerator<DriverDocument[]> {
    let batch: DriverDocument[] = [];
    for await (const doc of this.#streamCursor(filter, options, projection)) {
      batch.push(doc);
      if (batch.length === STREAM_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  streamBatches(filter: Filter, options: FindOptions = {}): AsyncIterable<T[]> {
    return this.#batches(filter, options) as AsyncIterable<T[]>;
  }

  async *streamJson(filter: Filter, field: string, options: FindOptions = {}): AsyncIterable<string[]> {
    const projection = field === '_id' ? { _id: 1 } : { _id: 0, [field]: 1 };
    for await (const docs of this.#batches(filter, options, projection)) {
      const texts = docs.flatMap((doc) => (doc[field] === undefined ? [] : [JSON.stringify(doc[field])]));
      if (texts.length > 0) yield texts;
    }
  }

  count(filter: Filter): Promise<number> {
    return this.#run((maxTimeMS) => this.#collection.countDocuments(filter, { maxTimeMS }));
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    const once = () =>
      this.#run(async (_maxTimeMS, deadline) => {
        const locks = await this.#settings.locks();
        return locks ? this.#lockedUpdateOne(locks, filter, update, options, deadline) : this.#nativeUpdateOne(filter, update, options, deadline);
      });
    try {
      return await once();
    } catch (error) {
      // An upsert that lost the race to insert its `_id` finds the document there now: the update
      // applies to it. MongoDB retries such upserts itself; FerretDB v1 reports the duplicate (and
      // does not name the index). A duplicate on another unique key fails the second try the same way.
      if (!options.upsert || !(error instanceof DuplicateKeyError) || typeof filter._id !== 'string') throw error;
      return once();
    }
  }

  /**
   * FerretDB v1 reads, changes and writes back a document in separate steps, so two racing updates
   * can both pass a condition or lose each other's changes (even a bare `$inc` by `_id`). Each update
   * therefore holds the document's lock (see DocumentLocks) around one native findOneAndUpdate that
   * carries the whole filter: under the lock, its check and write cannot interleave with another.
   * A filter with a string `_id` names the document, so that is the lock: one round trip when the
   * lock is handed over from the previous update of this process. Any other filter first looks up a
   * candidate; when it stopped matching before the lock was had, the next candidate is tried.
   */
  async #lockedUpdateOne(
    locks: DocumentLocks,
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: SortSpec },
    deadline: number,
  ): Promise<T | null> {
    if (typeof filter._id === 'string') {
      return locks.withLock(`${this.name}:${filter._id}`, deadline, (until) =>
        this.#nativeUpdateOne(filter, update, { upsert: options.upsert ?? false }, until),
      );
    }
    while (Date.now() < deadline) {
      const candidate = (await this.#collection.findOne(filter, {
        projection: { _id: 1 },
        maxTimeMS: remaining(deadline),
        ...(options.sort ? { sort: options.sort } : {}),
      })) as { _id: string } | null;
      if (!candidate) {
        if (!options.upsert) return null;
        const key = `${this.name}:upsert:${JSON.stringify(filter)}`;
        const created = await locks.withLock(key, deadline, async (until) =>
          (await this.#collection.findOne(filter, { projection: { _id: 1 }, maxTimeMS: remaining(until) }))
            ? undefined
            : ((await this.#nativeUpdateOne(filter, update, options, until)) ?? null),
        );
        if (created !== undefined) return created;
        continue;
      }
      const updated = await locks.withLock(`${this.name}:${candidate._id}`, deadline, (until) =>
        this.#nativeUpdateOne({ ...filter, _id: candidate._id }, update, {}, until),
      );
      if (updated) return updated;
    }
    throw new StorageUnavailableError(`Database operation on ${this.name} exceeded its time limit`);
  }

  async #nativeUpdateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }, until: number): Promise<T | null> {
    const body = compact(options.upsert && filter._id === undefined ? { ...update, $setOnInsert: { _id: newId(), ...update.$setOnInsert } } : update);
    const result = await this.#collection.findOneAndUpdate(filter, body, {
      returnDocument: 'after',
      upsert: options.upsert ?? false,
      ...(options.sort ? { sort: options.sort } : {}),
      includeResultMetadata: false,
      maxTimeMS: remaining(until),
    });
    return result as T | null;
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.#run(async (maxTimeMS, deadline) => {
      const locks = await this.#settings.locks();
      if (locks) return this.#lockedUpdateMany(locks, filter, update, deadline);
      return (await this.#collection.updateMany(filter, compact(update), { maxTimeMS })).modifiedCount;
    });
  }

  /**
   * On FerretDB an unlocked updateMany could undo a racing locked update of one of its documents
   * (each write puts back the whole document it read), so each match is updated under its lock.
   */
  async #lockedUpdateMany(locks: DocumentLocks, filter: Filter, update: Update, deadline: number): Promise<number> {
    const body = compact(update);
    const ids =
      typeof filter._id === 'string'
        ? [filter._id]
        : ((await this.#collection.find(filter, { projection: { _id: 1 }, maxTimeMS: remaining(deadline) }).toArray()) as Array<{ _id: string }>).map(
            (doc) => doc._id,
          );
    let modified = 0;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        const changed = await locks.withLock(
          `${this.name}:${id}`,
          deadline,
          async (until) => (await this.#collection.updateOne({ ...filter, _id: id }, body, { maxTimeMS: remaining(until) })).modifiedCount,
        );
        modified += changed;
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOCKED_UPDATE_MANY_PARALLEL, ids.length) }, worker));
    return modified;
  }

  deleteOne(filter: Filter): Promise<boolean> {
    return this.#run(async (maxTimeMS) => (await this.#collection.deleteOne(filter, { maxTimeMS })).deletedCount === 1);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.#run(async (maxTimeMS) => (await this.#collection.deleteMany(filter, { maxTimeMS })).deletedCount);
  }

  /** Start-up work without a time limit: an index build on a large collection may take a while. */
  async ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    try {
      for (const index of indexes) {
        const name = index.name ?? Object.keys(index.keys).join('_');
        const options = { name, unique: index.unique ?? false };
        if (index.expireAfterSeconds === undefined) {
          await this.#collection.createIndex(index.keys, options);
          continue;
        }
        try {
          await this.#collection.createIndex(index.keys, { ...options, expireAfterSeconds: index.expireAfterSeconds });
        } catch (error) {
          if (!ttlNotImplemented(error)) throw error;
          // FerretDB has no TTL indexes: a plain index, and this collection sweeps (IndexSpec).
          await this.#collection.createIndex(index.keys, options);
          this.#sweptTtl = { field: Object.keys(index.keys)[0] ?? '', seconds: index.expireAfterSeconds };
          await this.#sweepExpired(true);
        }
      }
    } catch (error) {
      throw translate(error, this.name);
    }
  }
}

/** The server's answer to a TTL option it does not implement (FerretDB: code 238, NotImplemented). */
function ttlNotImplemented(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 238 || (typeof message === 'string' && message.includes('expireAfterSeconds') && message.includes('not implemented'));
}
