import type { SQLOutputValue } from 'node:sqlite';
import { applyUpdate, equalityFields, setPath } from '@crawl/storage/paths';
import {
  DuplicateKeyError,
  newId,
  type Collection,
  type Document,
  type DocumentFields,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type SortSpec,
  type Update,
} from '@crawl/storage';
import { violatedUniqueIndex, type SqliteConnection } from './sqlite-connection.ts';
import { filterToSql, jsonPath, orderBySql, type SqlCondition } from './sqlite-filter.ts';
import { idLookup, meetsPlainConditions } from './sqlite-id-lookup.ts';
import { createIfMissing, sqliteIndex } from './sqlite-indexes.ts';
import { addStreamedColumns, streamedColumn, tableDefinition } from './sqlite-streamed-fields.ts';

const STREAM_BATCH = 500;

/** The columns an update reads of a row: its rowid and the document's JSON text. */
interface Row {
  rowid?: SQLOutputValue;
  doc?: SQLOutputValue;
}

/**
 * One collection as one table, `(id TEXT PRIMARY KEY, doc TEXT NOT NULL)` with the document as
 * JSON text (the format of every existing data directory). Queries, sorting, paging and counting
 * run in SQLite; in memory there is only a bounded cache of reads by `_id` (SqliteReadCache),
 * which every write forgets for its documents. Updates parse the matched document, apply the
 * update in JS and write it back, in the turn's write transaction (group commit: see
 * SqliteConnection).
 */
export class SqliteCollection<T extends Document> implements Collection<T> {
  readonly name: string;
  readonly #db: SqliteConnection;
  readonly #tableName: string;
  /** SQLite index name → the name the caller declared, for DuplicateKeyError. */
  readonly #declaredIndexNames = new Map<string, string>();
  /** Fields of the declared indexes: filters spell these out so the planner can use the indexes. */
  readonly #indexedPaths = new Set<string>();
  readonly #insertSql: string;
  readonly #docByRowidSql: string;
  readonly #docByIdSql: string;
  readonly #updateByRowidSql: string;
  /** Fields kept as JSON text in their own generated column (sqlite-streamed-fields.ts). */
  readonly #streamedFields = new Set<string>();
  /** A TTL index's field and seconds (IndexSpec.expireAfterSeconds), swept on writes at most once a second. */
  #ttl: { field: string; seconds: number } | undefined;
  #ttlSweptAt = 0;

  constructor(db: SqliteConnection, name: string, streamedFields: readonly string[] = []) {
    this.name = name;
    this.#db = db;
    this.#tableName = tableName(name);
    const table = `"${this.#tableName}"`;
    db.exec(tableDefinition(this.#tableName, streamedFields));
    this.streamFields(streamedFields);
    this.#insertSql = `INSERT INTO ${table} (id, doc) VALUES (?, ?)`;
    this.#docByRowidSql = `SELECT doc FROM ${table} WHERE rowid = ?`;
    this.#docByIdSql = `SELECT doc FROM ${table} WHERE id = ?`;
    this.#updateByRowidSql = `UPDATE ${table} SET doc = ? WHERE rowid = ?`;
  }

  /** Declares streamed fields after creation (the store hands out one object per collection). */
  streamFields(fields: readonly string[]): void {
    if (fields.every((field) => this.#streamedFields.has(field))) return;
    const all = [...new Set([...this.#streamedFields, ...fields])];
    addStreamedColumns(this.#db, this.#tableName, all);
    for (const field of all) this.#streamedFields.add(field);
  }

  async insertOne(doc: T): Promise<T> {
    const text = serialize(doc);
    this.#guard(() =>
      this.#db.write(() => {
        this.#forget(doc._id);
        this.#db.statement(this.#insertSql).run(doc._id, text);
      }),
    );
    await this.#sweepExpired();
    return doc;
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (docs.length === 0) return;
    this.#guard(() =>
      this.#db.write(() => {
        const insert = this.#db.statement(this.#insertSql);
        for (const doc of docs) {
          this.#forget(doc._id);
          insert.run(doc._id, serialize(doc));
        }
      }, true),
    );
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort'> = {}): Promise<T | null> {
    const id = idLookup(filter);
    if (id !== undefined) {
      // By id: the document from the read cache (or SQLite), the other conditions checked on it.
      const doc = this.#byId(id);
      return doc !== null && meetsPlainConditions(doc, filter) ? (doc as T) : null;
    }
    const where = filterToSql(filter, this.#indexedPaths);
    const row = this.#db.statement(this.#select('doc', where, options.sort, ' LIMIT 1')).get(...where.params);
    return row ? (JSON.parse(row.doc as string) as T) : null;
  }

  /** A fresh copy of the document with this id, through the read cache (sqlite-read-cache.ts). */
  #byId(id: string): DocumentFields | null {
    const cache = this.#db.readCache();
    let text = cache.get(this.#tableName, id);
    if (text === undefined) {
      const row = this.#db.statement(this.#docByIdSql).get(id);
      text = row ? (row.doc as string) : null;
      cache.set(this.#tableName, id, text);
    }
    return text === null ? null : (JSON.parse(text) as DocumentFields);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const where = filterToSql(filter, this.#indexedPaths);
    const rows = this.#db.statement(this.#select('doc', where, options.sort, ' LIMIT ? OFFSET ?')).all(...where.params, options.limit ?? -1, options.skip ?? 0);
    return rows.map((row) => JSON.parse(row.doc as string) as T);
  }

  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<T> {
    for await (const batch of this.streamBatches(filter, options)) yield* batch;
  }

  streamBatches(filter: Filter, options: FindOptions = {}): AsyncIterable<T[]> {
    return this.#batches('doc', filter, options, (text) => JSON.parse(text) as T);
  }

  streamJson(filter: Filter, field: string, options: FindOptions = {}): AsyncIterable<string[]> {
    if (field.includes('.') || field.startsWith('$')) throw new Error(`streamJson reads a top-level field, not ${JSON.stringify(field)}`);
    // A streamed field's column holds its JSON text already; otherwise `->` extracts it (parsing
    // the document in SQLite). NULL when missing either way.
    const column = this.#streamedFields.has(field) ? `"${streamedColumn(field)}"` : `doc -> '${jsonPath(field).replaceAll("'", "''")}'`;
    return this.#batches(column, filter, options, (text) => text);
  }

  async count(filter: Filter): Promise<number> {
    const where = filterToSql(filter, this.#indexedPaths);
    const row = this.#db.statement(this.#select('count(*) AS doc', where, undefined, '')).get(...where.params);
    return Number(row?.doc ?? 0);
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    const where = filterToSql(filter, this.#indexedPaths);
    const select = this.#select('rowid, doc', where, options.sort, ' LIMIT 1');
    // One statement writes (the update or the insert): all or none without a savepoint.
    return this.#guard(() =>
      this.#db.write(() => {
        const row = this.#db.statement(select).get(...where.params);
        if (row) return this.#rewrite(row, update);
        if (!options.upsert) return null;
        const created: DocumentFields = {};
        for (const [path, value] of Object.entries(equalityFields(filter))) setPath(created, path, structuredClone(value));
        applyUpdate(created, update, true);
        if (typeof created._id !== 'string') created._id = newId();
        this.#forget(created._id as string);
        this.#db.statement(this.#insertSql).run(created._id as string, JSON.stringify(created));
        return created as unknown as T;
      }),
    );
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    const where = filterToSql(filter, this.#indexedPaths);
    const select = this.#select('rowid', where, undefined, '');
    return this.#guard(() =>
      this.#db.write(() => {
        // Row ids first, then one document at a time: the scan never meets its own writes, and
        // only ids are held. A unique-key violation rolls back every document.
        const rowids = this.#db.statement(select).all(...where.params);
        const read = this.#db.statement(this.#docByRowidSql);
        for (const { rowid } of rowids) this.#rewrite({ rowid, doc: read.get(rowid as number)?.doc }, update);
        return rowids.length;
      }, true),
    );
  }

  // One DELETE statement: all or none without a savepoint.
  async deleteOne(filter: Filter): Promise<boolean> {
    const where = filterToSql(filter, this.#indexedPaths);
    const sql = `DELETE FROM "${this.#tableName}" WHERE rowid = (${this.#select('rowid', where, undefined, ' LIMIT 1')})`;
    return this.#db.write(() => {
      this.#forgetTable();
      return Number(this.#db.statement(sql).run(...where.params).changes) > 0;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = filterToSql(filter, this.#indexedPaths);
    return this.#db.write(() => {
      this.#forgetTable();
      return Number(this.#db.statement(`DELETE FROM "${this.#tableName}" WHERE ${where.sql}`).run(...where.params).changes);
    });
  }

  async ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    for (const spec of indexes) {
      const [ttlField] = Object.keys(spec.keys);
      if (spec.expireAfterSeconds !== undefined && ttlField !== undefined) this.#ttl = { field: ttlField, seconds: spec.expireAfterSeconds };
      const index = sqliteIndex(this.#tableName, spec);
      this.#declaredIndexNames.set(index.name, index.declared);
      for (const path of Object.keys(spec.keys)) this.#indexedPaths.add(path);
      this.#guard(() =>
        this.#db.write(() => {
          const existing = this.#db.statement("SELECT tbl_name, sql FROM sqlite_schema WHERE type = 'index' AND name = ?").get(index.name);
          if (existing && existing.sql !== index.definition) {
            if (existing.tbl_name !== this.#tableName) throw new Error(`SQLite index ${index.name} already belongs to table ${String(existing.tbl_name)}`);
            // Same name, other fields, order or uniqueness: rebuild it as now declared.
            this.#db.exec(`DROP INDEX "${index.name}"`);
          }
          this.#db.exec(createIfMissing(index));
        }, true),
      );
    }
    await this.#sweepExpired(true);
  }

  /**
   * The embedded store's TTL: documents whose TTL field (a Date, stored as its ISO text) plus the
   * index's seconds has passed are deleted, on `ensureIndexes` and on inserts at most once a second.
   */
  async #sweepExpired(force = false): Promise<void> {
    if (this.#ttl === undefined) return;
    const now = Date.now();
    if (!force && now - this.#ttlSweptAt < 1_000) return;
    this.#ttlSweptAt = now;
    await this.deleteMany({ [this.#ttl.field]: { $lte: new Date(now - this.#ttl.seconds * 1_000).toISOString() } });
  }

  /** Diagnostics: SQLite's plan for `find(filter, options)`, one line per step (tests check index use). */
  explainFind(filter: Filter, options: FindOptions = {}): string[] {
    const where = filterToSql(filter, this.#indexedPaths);
    const sql = this.#select('doc', where, options.sort, ' LIMIT ? OFFSET ?');
    return this.#db
      .statement(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...where.params, options.limit ?? -1, options.skip ?? 0)
      .map((row) => String(row.detail));
  }

  #select(columns: string, where: SqlCondition, sort: SortSpec | undefined, tail: string): string {
    return `SELECT ${columns} FROM "${this.#tableName}" WHERE ${where.sql}${orderBySql(sort)}${tail}`;
  }

  /** Applies `update` to the stored document of `row` and writes it back; `_id` never changes. */
  #rewrite(row: Row, update: Update): T {
    const doc = JSON.parse(row.doc as string) as DocumentFields;
    const id = doc._id;
    this.#forget(id as string);
    applyUpdate(doc, update, false);
    doc._id = id;
    this.#db.statement(this.#updateByRowidSql).run(JSON.stringify(doc), row.rowid as number);
    return doc as unknown as T;
  }

  /**
   * Reads `column` of each match lazily from an open statement, STREAM_BATCH rows at a time, with
   * a turn of the event loop between batches. Rows where the column is NULL are skipped. However
   * the consumer stops, the iterator is closed, which ends SQLite's read transaction (an open one
   * would pin the WAL).
   */
  async *#batches<R>(column: string, filter: Filter, options: FindOptions, convert: (text: string) => R): AsyncGenerator<R[]> {
    const where = filterToSql(filter, this.#indexedPaths);
    const sql = this.#select(`${column} AS v`, where, options.sort, ' LIMIT ? OFFSET ?');
    const statement = this.#db.checkOut(sql);
    const rows = statement.iterate(...where.params, options.limit ?? -1, options.skip ?? 0);
    try {
      for (let done = false; !done; ) {
        const batch: R[] = [];
        for (let read = 0; read < STREAM_BATCH; read += 1) {
          const next = rows.next();
          if (next.done) {
            done = true;
            break;
          }
          const text = next.value.v;
          if (typeof text === 'string') batch.push(convert(text));
        }
        if (batch.length > 0) yield batch;
        if (!done) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      try {
        rows.return?.();
      } finally {
        this.#db.checkIn(sql, statement);
      }
    }
  }

  /** Drops what the read cache knows of a document about to be written. */
  #forget(id: string): void {
    this.#db.forgetCached(this.#tableName, id);
  }

  #forgetTable(): void {
    this.#db.forgetCached(this.#tableName);
  }

  #guard<R>(work: () => R): R {
    try {
      return work();
    } catch (error) {
      const index = violatedUniqueIndex(error);
      if (index === undefined) throw error;
      throw new DuplicateKeyError(this.name, this.#declaredIndexNames.get(index) ?? index.replace(`ix_${this.#tableName}__`, ''));
    }
  }
}

/** The table of a collection, as every existing data directory names it. */
export function tableName(collection: string): string {
  return `c_${collection.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function serialize(doc: Document): string {
  if (typeof doc._id !== 'string') throw new TypeError('A document needs a string _id');
  return JSON.stringify(doc);
}
