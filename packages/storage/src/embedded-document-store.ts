import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { applyUpdate, equalityFields, getPath, matches, setPath, sortDocuments } from './document-paths.ts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore, type Filter, type FindOptions, type IndexSpec, type SortSpec, type Update } from './document-store.ts';
import { newId } from './ids.ts';

interface Index {
  name: string;
  fields: string[];
  unique: boolean;
  /** First-field value (or full key for unique indexes) to ids. */
  entries: Map<string, Set<string>>;
}

const STREAM_BATCH = 500;

function indexKey(doc: Document, fields: readonly string[]): string {
  return JSON.stringify(fields.map((field) => getPath(doc, field) ?? null));
}

/**
 * A collection held in memory and written through to SQLite. Every operation runs synchronously
 * inside one event-loop turn, which is what makes conditional updates atomic here.
 */
class EmbeddedCollection<T extends Document> implements Collection<T> {
  readonly name: string;
  readonly #docs = new Map<string, T>();
  readonly #indexes: Index[] = [];
  readonly #upsertStatement: StatementSync;
  readonly #deleteStatement: StatementSync;

  constructor(db: DatabaseSync, name: string) {
    this.name = name;
    const table = `"c_${name.replace(/[^A-Za-z0-9_]/g, '_')}"`;
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    this.#upsertStatement = db.prepare(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`);
    this.#deleteStatement = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
    for (const row of db.prepare(`SELECT doc FROM ${table}`).iterate() as Iterable<{ doc: string }>) {
      const doc = JSON.parse(row.doc) as T;
      this.#docs.set(doc._id, doc);
    }
  }

  async insertOne(doc: T): Promise<T> {
    const copy = structuredClone(doc);
    if (this.#docs.has(copy._id)) throw new DuplicateKeyError(this.name, '_id');
    this.#assertUnique(copy, undefined);
    this.#write(copy, undefined);
    return structuredClone(copy);
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<T | null> {
    const found = this.#select(filter, { ...options, limit: 1 })[0];
    return found ? structuredClone(found) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.#select(filter, options).map((doc) => structuredClone(doc));
  }

  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<T> {
    const ids = this.#select(filter, options).map((doc) => doc._id);
    for (let start = 0; start < ids.length; start += STREAM_BATCH) {
      const batch = ids.slice(start, start + STREAM_BATCH).flatMap((id) => {
        const doc = this.#docs.get(id);
        return doc ? [structuredClone(doc)] : [];
      });
      for (const doc of batch) yield doc;
      // Let other requests run between batches, as a database cursor would.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async count(filter: Filter): Promise<number> {
    return this.#candidates(filter).filter((doc) => matches(doc, filter)).length;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    const current = this.#select(filter, { sort: options.sort, limit: 1 })[0];
    if (current) {
      const next = structuredClone(current);
      applyUpdate(next as unknown as Record<string, unknown>, update, false);
      next._id = current._id;
      this.#assertUnique(next, current._id);
      this.#write(next, current);
      return structuredClone(next);
    }
    if (!options.upsert) return null;
    const created: Record<string, unknown> = {};
    for (const [path, value] of Object.entries(equalityFields(filter))) setPath(created, path, structuredClone(value));
    applyUpdate(created, update, true);
    if (typeof created._id !== 'string') created._id = newId();
    return this.insertOne(created as unknown as T);
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    const targets = this.#select(filter, {});
    const updated = targets.map((current) => {
      const next = structuredClone(current);
      applyUpdate(next as unknown as Record<string, unknown>, update, false);
      next._id = current._id;
      this.#assertUnique(next, current._id);
      return [current, next] as const;
    });
    for (const [current, next] of updated) this.#write(next, current);
    return updated.length;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    const doc = this.#select(filter, { limit: 1 })[0];
    if (!doc) return false;
    this.#remove(doc);
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const docs = this.#select(filter, {});
    for (const doc of docs) this.#remove(doc);
    return docs.length;
  }

  async ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    for (const spec of indexes) {
      const fields = Object.keys(spec.keys);
      const name = spec.name ?? fields.join('_');
      if (this.#indexes.some((index) => index.name === name)) continue;
      const index: Index = { name, fields, unique: spec.unique ?? false, entries: new Map() };
      for (const doc of this.#docs.values()) this.#addToIndex(index, doc);
      this.#indexes.push(index);
    }
  }

  #key(index: Index, doc: Document): string {
    return index.unique ? indexKey(doc, index.fields) : indexKey(doc, index.fields.slice(0, 1));
  }

  #addToIndex(index: Index, doc: Document): void {
    const key = this.#key(index, doc);
    const ids = index.entries.get(key) ?? new Set<string>();
    if (index.unique && ids.size > 0 && !ids.has(doc._id)) throw new DuplicateKeyError(this.name, index.name);
    ids.add(doc._id);
    index.entries.set(key, ids);
  }

  #removeFromIndex(index: Index, doc: Document): void {
    const key = this.#key(index, doc);
    const ids = index.entries.get(key);
    ids?.delete(doc._id);
    if (ids?.size === 0) index.entries.delete(key);
  }

  #assertUnique(doc: Document, replacing: string | undefined): void {
    for (const index of this.#indexes) {
      if (!index.unique) continue;
      const holders = index.entries.get(this.#key(index, doc));
      if (holders && [...holders].some((id) => id !== replacing)) throw new DuplicateKeyError(this.name, index.name);
    }
  }

  #write(next: T, previous: T | undefined): void {
    this.#upsertStatement.run(next._id, JSON.stringify(next));
    if (previous) for (const index of this.#indexes) this.#removeFromIndex(index, previous);
    this.#docs.set(next._id, next);
    for (const index of this.#indexes) this.#addToIndex(index, next);
  }

  #remove(doc: T): void {
    this.#deleteStatement.run(doc._id);
    for (const index of this.#indexes) this.#removeFromIndex(index, doc);
    this.#docs.delete(doc._id);
  }

  /** Narrows the scan with an index whose first field the filter pins by equality. */
  #candidates(filter: Filter): T[] {
    if (typeof filter._id === 'string') {
      const doc = this.#docs.get(filter._id);
      return doc ? [doc] : [];
    }
    for (const index of this.#indexes) {
      if (index.unique && index.fields.length > 1) continue;
      const field = index.fields[0];
      if (!field) continue;
      const value = filter[field];
      if (value === undefined || (value !== null && typeof value === 'object')) continue;
      const ids = index.entries.get(JSON.stringify([value]));
      return ids ? [...ids].flatMap((id) => this.#docs.get(id) ?? []) : [];
    }
    return [...this.#docs.values()];
  }

  #select(filter: Filter, options: FindOptions): T[] {
    const matched = sortDocuments(
      this.#candidates(filter).filter((doc) => matches(doc, filter)),
      options.sort,
    );
    const skip = options.skip ?? 0;
    return options.limit === undefined ? matched.slice(skip) : matched.slice(skip, skip + options.limit);
  }
}

export interface EmbeddedDocumentStoreOptions {
  /** SQLite file path; `:memory:` keeps nothing on disk (tests). */
  path: string;
}

/** The all-in-one store: documents in memory, persisted to one SQLite file per service. */
export class EmbeddedDocumentStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  readonly #db: DatabaseSync;
  readonly #collections = new Map<string, EmbeddedCollection<Document>>();

  constructor(options: EmbeddedDocumentStoreOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new DatabaseSync(options.path);
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  }

  static inMemory(): EmbeddedDocumentStore {
    return new EmbeddedDocumentStore({ path: ':memory:' });
  }

  collection<T extends Document>(name: string): Collection<T> {
    let collection = this.#collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection<Document>(this.#db, name);
      this.#collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
