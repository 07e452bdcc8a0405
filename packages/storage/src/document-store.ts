/**
 * The storage port. Repositories are written once against it; adapters (embedded, MongoDB) pass
 * one contract suite. The query and update language is a small, explicit subset of MongoDB's, so
 * the MongoDB adapter is a thin pass-through and the embedded one stays small.
 *
 * Where the adapters differ, callers must not depend on either behaviour:
 * - Equality on an array field compares the whole array. MongoDB also matches when one element
 *   equals the value (`{tags: 'x'}` matches `{tags: ['x']}`); the embedded store (SQLite) does not
 *   emulate that, and no caller needs it: array fields are reached through index paths
 *   (`targets.3.status`). A numeric path segment always indexes an array, never an object key.
 * - A unique index treats documents missing the field (or holding null) as distinct on the
 *   embedded store, as equal on MongoDB: declare unique indexes on fields every document has.
 */
/** Any record with a string `_id`; interfaces qualify without an index signature. */
export interface Document {
  _id: string;
}

/**
 * A document's fields by name, or an update's values by path, as the store itself handles them.
 * Opaque by design: the port is generic over each collection's document type (`Collection<T>`);
 * below it, the update language and the adapters copy, compare and serialize values they never
 * interpret. Repositories type their own documents and changes; only this layer sees them so.
 */
export type DocumentFields = Record<string, unknown>;

export interface Operators {
  $eq?: unknown;
  $ne?: unknown;
  $in?: readonly unknown[];
  $nin?: readonly unknown[];
  $gt?: unknown;
  $gte?: unknown;
  $lt?: unknown;
  $lte?: unknown;
  $exists?: boolean;
}

/** Field paths (dot notation, numeric segments index arrays) to a value or operators. */
export type Filter = { [path: string]: unknown } & { $or?: Filter[] };

export interface Update {
  $set?: DocumentFields;
  $unset?: Record<string, true | '' | 1>;
  $inc?: Record<string, number>;
  $max?: Record<string, number | string>;
  $min?: Record<string, number | string>;
  $push?: DocumentFields;
  $setOnInsert?: DocumentFields;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
  /**
   * A TTL index (one field holding a Date): a document is removed once that time plus these
   * seconds has passed. MongoDB's TTL monitor does it about once a minute; the embedded store when
   * the collection is written and on `ensureIndexes`. Either may keep an expired document a while,
   * so readers that care check the time themselves.
   */
  expireAfterSeconds?: number;
}

export interface Collection<T extends Document> {
  readonly name: string;
  /** @throws DuplicateKeyError when a unique index (or `_id`) already holds the key. */
  insertOne(doc: T): Promise<T>;
  /**
   * Inserts in order, in one round trip (one transaction on the embedded store).
   * @throws DuplicateKeyError on a taken key; the documents before it may or may not be stored,
   * so callers treat the whole batch as unknown and fall back to idempotent writes.
   */
  insertMany(docs: readonly T[]): Promise<void>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /** Reads lazily in batches so a large result set never sits in memory at once. */
  stream(filter: Filter, options?: FindOptions): AsyncIterable<T>;
  /**
   * The same documents a batch at a time (arrays of up to a few hundred, in order): for readers
   * of many documents (exports) that would otherwise pay an asynchronous step per document.
   */
  streamBatches(filter: Filter, options?: FindOptions): AsyncIterable<T[]>;
  /**
   * Streams the JSON text of one top-level field of each match, a batch at a time, never parsed
   * on the way: exports pass stored JSON straight through. Matches without the field are skipped.
   */
  streamJson(filter: Filter, field: string, options?: FindOptions): AsyncIterable<string[]>;
  count(filter: Filter): Promise<number>;
  /**
   * Atomically updates the first match and returns the document after the update, or null when
   * nothing matched. With `upsert`, inserts from the filter's equality fields and `$setOnInsert`.
   */
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean; sort?: SortSpec }): Promise<T | null>;
  updateMany(filter: Filter, update: Update): Promise<number>;
  deleteOne(filter: Filter): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void>;
}

export interface CollectionOptions {
  /**
   * Top-level fields the caller reads with `streamJson` in bulk (an export's items). An adapter may
   * keep a ready copy of their JSON text beside the document, so those reads parse nothing. Reads
   * and writes of the documents are unchanged.
   */
  streamedFields?: readonly string[];
}

export interface DocumentStore {
  readonly kind: 'embedded' | 'mongodb';
  collection<T extends Document>(name: string, options?: CollectionOptions): Collection<T>;
  /**
   * For a store that commits writes in groups: the commit of the writes made so far (they are
   * already visible to this process), or undefined when all are committed. What tells the world
   * outside the process of a write waits for it first.
   */
  pendingCommit?(): Promise<void> | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  readonly collection: string;
  readonly index: string;
  constructor(collection: string, index: string) {
    super(`Duplicate key in ${collection} on ${index}`);
    this.name = 'DuplicateKeyError';
    this.collection = collection;
    this.index = index;
  }
}

/** The backing database could not be reached; callers answer 503 rather than hang. */
export class StorageUnavailableError extends Error {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly statusCode = 503;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}
