import { MongoClient, MongoServerError, type Collection as DriverCollection, type Db, type Document as DriverDocument } from 'mongodb';
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

  constructor(db: Db, name: string) {
    this.name = name;
    this.#collection = db.collection(name);
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
      const body = compact(options.upsert && filter._id === undefined ? { ...update, $setOnInsert: { _id: newId(), ...update.$setOnInsert } } : update);
      const result = await this.#collection.findOneAndUpdate(filter, body, {
        returnDocument: 'after',
        upsert: options.upsert ?? false,
        ...(options.sort ? { sort: options.sort } : {}),
        includeResultMetadata: false,
      });
      return result as T | null;
    });
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
        const partial = index.partialExists?.length ? { partialFilterExpression: Object.fromEntries(index.partialExists.map((f) => [f, { $exists: true }])) } : {};
        await this.#collection.createIndex(index.keys, { name, unique: index.unique ?? false, ...partial });
      }
    });
  }
}

export interface MongoDocumentStoreOptions {
  url: string;
  database: string;
  /** How long an operation waits for a reachable server before failing (then 503). */
  serverSelectionTimeoutMs?: number;
}

/** The production store: the official driver, one database per service. */
export class MongoDocumentStore implements DocumentStore {
  readonly kind = 'mongodb' as const;
  readonly #client: MongoClient;
  readonly #db: Db;

  constructor(options: MongoDocumentStoreOptions) {
    this.#client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3_000,
      connectTimeoutMS: 3_000,
      ignoreUndefined: true,
      retryWrites: false,
    });
    this.#db = this.#client.db(options.database);
  }

  collection<T extends Document>(name: string): Collection<T> {
    return new MongoCollection<T>(this.#db, name);
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
