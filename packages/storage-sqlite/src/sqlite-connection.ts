import { resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { prepareDatabaseFiles } from './private-files.ts';
import { checkpointInBackground } from './sqlite-checkpointer.ts';
import { ForeignCommits } from './sqlite-foreign-commits.ts';
import { SqliteReadCache } from './sqlite-read-cache.ts';

/** Prepared statements kept per connection; SQL texts are few (shapes, not values), so this rarely evicts. */
const STATEMENT_CACHE_SIZE = 500;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;
/** Read cache bounds, in characters of cached JSON text (≈ bytes: documents are mostly ASCII). */
const READ_CACHE_CHARS = 16 * 1024 * 1024;
const READ_CACHE_ENTRY_CHARS = 256 * 1024;

/**
 * The one SQLite connection of a store. Every statement runs synchronously on it, so a write
 * (`write`) is never interleaved with another caller's statements: that, and BEGIN IMMEDIATE
 * against other processes, is the store's consistency model.
 *
 * Group commit: the writes of one event-loop turn share one transaction, opened by the first and
 * committed on `setImmediate`: one WAL append instead of one per write (a job create is a dozen
 * writes, and their commits were a third of its CPU). A write takes effect at once for every
 * reader of this process; what leaves the process waits for the commit (`pendingCommit`): the
 * composition root holds every HTTP response until then, so no client ever sees, or is told of, a
 * write that is not committed. If SQLite rolls a turn back by itself (disk full, I/O error), the
 * responses waiting for it fail.
 */
export class SqliteConnection {
  readonly #db: DatabaseSync;
  /** LRU by SQL text: Map keeps insertion order, a hit moves the entry to the end. */
  readonly #statements = new Map<string, StatementSync>();
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #savepoint: StatementSync;
  readonly #releaseSavepoint: StatementSync;
  readonly #rollbackToSavepoint: StatementSync;
  /** The open turn's commit, settled when it is committed (or lost). */
  #pending: { promise: Promise<void>; resolve(): void; reject(error: unknown): void } | undefined;
  #inUnit = false;
  readonly #releaseCheckpointer: (() => Promise<void>) | undefined;
  readonly #readCache = new SqliteReadCache({ maxChars: READ_CACHE_CHARS, maxEntryChars: READ_CACHE_ENTRY_CHARS });
  readonly #foreignCommits: ForeignCommits;

  constructor(path: string) {
    if (path !== ':memory:') prepareDatabaseFiles(path);
    this.#db = new DatabaseSync(path);
    // WAL: readers never block the writer; NORMAL: no fsync per commit (durable at checkpoints,
    // the database never corrupts); busy_timeout: wait for another process's write lock;
    // journal_size_limit: give the disk back after a burst has grown the WAL file.
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA journal_size_limit = 67108864;');
    if (path !== ':memory:') {
      // Checkpoints (and their fsyncs) run on a background thread; see sqlite-checkpointer.ts.
      this.#db.exec('PRAGMA wal_autocheckpoint = 0');
      this.#releaseCheckpointer = checkpointInBackground(resolve(path), () => {
        if (this.#db.isOpen) this.#db.exec('PRAGMA wal_autocheckpoint = 1000');
      });
    }
    this.#begin = this.#db.prepare('BEGIN IMMEDIATE');
    this.#commit = this.#db.prepare('COMMIT');
    this.#rollback = this.#db.prepare('ROLLBACK');
    this.#savepoint = this.#db.prepare('SAVEPOINT unit');
    this.#releaseSavepoint = this.#db.prepare('RELEASE unit');
    this.#rollbackToSavepoint = this.#db.prepare('ROLLBACK TO unit');
    this.#foreignCommits = new ForeignCommits(this.#db, path === ':memory:' ? path : resolve(path), () => this.#readCache.clear());
  }

  /**
   * The read cache, emptied first if another connection has committed since (see ForeignCommits).
   * This connection's own writes are forgotten document by document by the collections as they
   * make them.
   */
  readCache(): SqliteReadCache {
    this.#foreignCommits.check();
    return this.#readCache;
  }

  /** Forgets cached reads of a document about to be written (of the whole table without an id). */
  forgetCached(table: string, id?: string): void {
    if (id === undefined) this.#readCache.forgetTable(table);
    else this.#readCache.forget(table, id);
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** A cached prepared statement. Never iterate it: another call would reset it mid-way (see `checkOut`). */
  statement(sql: string): StatementSync {
    const cached = this.#statements.get(sql);
    if (cached) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.#db.prepare(sql);
    this.#remember(sql, statement);
    return statement;
  }

  /**
   * A statement for exclusive use while an iterator over it is open (a stream): taken out of the
   * cache so no other call resets it. Give it back with `checkIn` once the iterator is closed.
   */
  checkOut(sql: string): StatementSync {
    const cached = this.#statements.get(sql);
    if (!cached) return this.#db.prepare(sql);
    this.#statements.delete(sql);
    return cached;
  }

  checkIn(sql: string, statement: StatementSync): void {
    if (this.#db.isOpen && !this.#statements.has(sql)) this.#remember(sql, statement);
  }

  #remember(sql: string, statement: StatementSync): void {
    this.#statements.set(sql, statement);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value as string;
      this.#statements.delete(oldest);
    }
  }

  /**
   * Runs `work`'s statements in this turn's write transaction. `unit`: several statements that
   * must apply all or none (a savepoint: an error undoes them and nothing else of the turn). One
   * statement is all or none by itself.
   */
  write<R>(work: () => R, unit = false): R {
    this.#openTurn();
    if (!unit || this.#inUnit) return this.#single(work);
    this.#savepoint.run();
    this.#inUnit = true;
    try {
      const result = work();
      this.#releaseSavepoint.run();
      return result;
    } catch (error) {
      // SQLite may have rolled the whole transaction back by itself (e.g. on SQLITE_FULL).
      // What was read inside the unit may have been undone with it.
      this.#readCache.clear();
      if (this.#db.isTransaction) {
        this.#rollbackToSavepoint.run();
        this.#releaseSavepoint.run();
      }
      throw error;
    } finally {
      this.#inUnit = false;
    }
  }

  #single<R>(work: () => R): R {
    try {
      return work();
    } catch (error) {
      // A failed statement undoes only itself, unless SQLite rolled the whole turn back.
      if (!this.#db.isTransaction) this.#readCache.clear();
      throw error;
    }
  }

  /** The commit of the writes made so far, or undefined when they are all committed. */
  pendingCommit(): Promise<void> | undefined {
    return this.#pending?.promise;
  }

  #openTurn(): void {
    if (this.#pending && !this.#db.isTransaction) this.#settle(new Error('SQLite rolled the write transaction back'));
    if (this.#pending) return;
    this.#begin.run();
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Observed by whoever awaits it; a turn nobody waited for must not be an unhandled rejection.
    promise.catch(() => {});
    const pending = { promise, resolve, reject };
    this.#pending = pending;
    setImmediate(() => {
      if (this.#pending === pending) this.#commitTurn();
    });
  }

  #commitTurn(): void {
    if (!this.#db.isTransaction) return this.#settle(new Error('SQLite rolled the write transaction back'));
    try {
      this.#commit.run();
    } catch (error) {
      if (this.#db.isTransaction) this.#rollback.run();
      return this.#settle(error);
    }
    this.#foreignCommits.committed();
    this.#settle();
  }

  #settle(error?: unknown): void {
    const pending = this.#pending;
    this.#pending = undefined;
    // A lost turn takes its writes with it: whatever the cache learned from them is gone too.
    if (error !== undefined) this.#readCache.clear();
    if (error === undefined) pending?.resolve();
    else pending?.reject(error);
  }

  /** Closes after the checkpointer's connection, so SQLite folds the WAL back into the file. */
  async close(): Promise<void> {
    if (this.#pending && this.#db.isOpen) this.#commitTurn();
    this.#statements.clear();
    this.#readCache.clear();
    this.#foreignCommits.close();
    await this.#releaseCheckpointer?.();
    if (this.#db.isOpen) this.#db.close();
  }
}

/**
 * The index a unique-constraint error names: `'_id'` for the primary key, else the SQLite index
 * name; undefined for any other error.
 */
export function violatedUniqueIndex(error: unknown): string | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (code === SQLITE_CONSTRAINT_PRIMARYKEY) return '_id';
  if (code !== SQLITE_CONSTRAINT_UNIQUE) return undefined;
  // "UNIQUE constraint failed: index 'ix_…'" for expression indexes.
  return /index '([^']+)'/.exec((error as Error).message)?.[1] ?? 'unique index';
}
