import { MongoClient, MongoServerError, type Collection as DriverCollection, type Db, type Document as DriverDocument } from 'mongodb';
import { DocumentLocks } from './document-locks.ts';
import { DuplicateKeyError, StorageUnavailableError, type Collection, type Document, type DocumentStore, type Filter, type FindOptions, type IndexSpec, type SortSpec, type Update } from './document-store.ts';
import { newId } from './ids.ts';

const STREAM_BATCH = 500;

function translate(error: unknown, collection: string): Error {
  if (error instanceof MongoServerError && error.code === 11000) {
    const index = /index: (\S+)/.exec(error.message)?.[1] ?? 'unique index';
    return new DuplicateKeyError(collection, index);
  }
  if (error instanceof Error && /MongoServerSelectionError|MongoNetworkError|MongoNotConnectedError|MongoTopologyClosedError|PoolClearedError/.test(error.name)) {
    return new StorageUnavailableError(`Database unavailable: ${error.message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** MongoDB rejects empty operator objects (`$set: {}`); drop them. */
function compact(update: Update): DriverDocument {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value && Object.keys(value).length > 0));
}

class MongoCollection<T extends Document> implements Collection<T> {
  readonly name: string;
  // The driver types `_id` as ObjectId; ours are strings, so the collection is untyped here.
  readonly #collection: DriverCollection<any>;
  /** Present when the server's conditional updates are not atomic (FerretDB v1). */
  readonly #locks: () => Promise<DocumentLocks | undefined>;

  constructor(db: Db, name: string, locks: () => Promise<DocumentLocks | undefined>) {
    this.name = name;
    this.#collection = db.collection(name);
    this.#locks = locks;
  }

  async #run<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (error) {
      throw translate(error, this.name);
    }
  }

  insertOne(doc: T): Promise<T> {
    return this.#run(async () => {
      await this.#collection.insertOne({ ...doc });
      return doc;
    });
  }

  findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<T | null> {
    return this.#run(async () => (await this.#collection.findOne(filter, options.sort ? { sort: options.sort } : {})) as T | null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.#run(async () => {
      let cursor = this.#collection.find(filter);
      if (options.sort) cursor = cursor.sort(options.sort);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
      return (await cursor.toArray()) as unknown as T[];
    });
  }

  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<T> {
    let cursor = this.#collection.find(filter).batchSize(STREAM_BATCH);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    try {
      for await (const doc of cursor) yield doc as T;
    } catch (error) {
      throw translate(error, this.name);
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }

  count(filter: Filter): Promise<number> {
    return this.#run(() => this.#collection.countDocuments(filter));
  }

  updateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    return this.#run(async () => {
      const locks = await this.#locks();
      return locks ? this.#lockedUpdateOne(locks, filter, update, options) : this.#nativeUpdateOne(filter, update, options);
    });
  }

  /**
   * Lock the candidate, re-check the filter under the lock, then write by id: what MongoDB does
   * in one step, done in three where the server would otherwise let two racing writers both match.
   */
  async #lockedUpdateOne(locks: DocumentLocks, filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }): Promise<T | null> {
    for (let round = 0; round < 20; round += 1) {
      const candidate = (await this.#collection.findOne(filter, { projection: { _id: 1 }, ...(options.sort ? { sort: options.sort } : {}) })) as { _id: string } | null;
      if (!candidate) {
        if (!options.upsert) return null;
        const key = `${this.name}:upsert:${JSON.stringify(filter)}`;
        const created = await locks.withLock(key, async () =>
          (await this.#collection.findOne(filter)) ? undefined : ((await this.#nativeUpdateOne(filter, update, options)) ?? null),
        );
        if (created !== undefined) return created;
        continue;
      }
      const result = await locks.withLock(`${this.name}:${candidate._id}`, async () => {
        const still = await this.#collection.findOne({ ...filter, _id: candidate._id }, { projection: { _id: 1 } });
        return still ? this.#nativeUpdateOne({ _id: candidate._id }, update, {}) : undefined;
      });
      if (result !== undefined) return result;
    }
    return null;
  }

  async #nativeUpdateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }): Promise<T | null> {
    {
      const body = compact(options.upsert && filter._id === undefined ? { ...update, $setOnInsert: { _id: newId(), ...update.$setOnInsert } } : update);
      const result = await this.#collection.findOneAndUpdate(filter, body, {
        returnDocument: 'after',
        upsert: options.upsert ?? false,
        ...(options.sort ? { sort: options.sort } : {}),
        includeResultMetadata: false,
      });
      return result as T | null;
    }
  }

  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.#run(async () => (await this.#collection.updateMany(filter, compact(update))).modifiedCount);
  }

  deleteOne(filter: Filter): Promise<boolean> {
    return this.#run(async () => (await this.#collection.deleteOne(filter)).deletedCount === 1);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.#run(async () => (await this.#collection.deleteMany(filter)).deletedCount);
  }

  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    return this.#run(async () => {
      for (const index of indexes) {
        const name = index.name ?? Object.keys(index.keys).join('_');
        await this.#collection.createIndex(index.keys, { name, unique: index.unique ?? false });
      }
    });
  }
}

export interface MongoDocumentStoreOptions {
  url: string;
  database: string;
  /**
   * Serialise conditional updates with lock documents. `auto` (default) turns it on for servers
   * that identify as FerretDB, whose v1 does not apply them atomically.
   */
  lockedUpdates?: 'auto' | 'always' | 'never';
  /** How long an operation waits for a reachable server before failing (then 503). */
  serverSelectionTimeoutMs?: number;
}

/** The production store: the official driver, one database per service. */
export class MongoDocumentStore implements DocumentStore {
  readonly kind = 'mongodb' as const;
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #lockedUpdates: 'auto' | 'always' | 'never';
  #locks: Promise<DocumentLocks | undefined> | undefined;

  constructor(options: MongoDocumentStoreOptions) {
    this.#lockedUpdates = options.lockedUpdates ?? 'auto';
    this.#client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3_000,
      connectTimeoutMS: 3_000,
      ignoreUndefined: true,
      retryWrites: false,
    });
    this.#db = this.#client.db(options.database);
  }

  collection<T extends Document>(name: string): Collection<T> {
    return new MongoCollection<T>(this.#db, name, () => this.#lockProvider());
  }

  /** Whether this server needs lock documents around conditional updates, asked once. */
  #lockProvider(): Promise<DocumentLocks | undefined> {
    this.#locks ??= (async () => {
      if (this.#lockedUpdates === 'never') return undefined;
      if (this.#lockedUpdates === 'auto') {
        const info = await this.#db.admin().command({ buildInfo: 1 });
        if (!('ferretdbVersion' in info)) return undefined;
      }
      return new DocumentLocks(this.#db.collection('_document_locks'));
    })().catch((error: unknown) => {
      this.#locks = undefined;
      throw error;
    });
    return this.#locks;
  }

  /** True when conditional updates go through lock documents (FerretDB). */
  async usesLockedUpdates(): Promise<boolean> {
    return (await this.#lockProvider()) !== undefined;
  }

  async ping(): Promise<void> {
    try {
      await this.#db.command({ ping: 1 });
    } catch (error) {
      throw translate(error, 'admin');
    }
  }

  /** Test helper: removes the whole database. */
  async dropDatabase(): Promise<void> {
    await this.#db.dropDatabase();
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
