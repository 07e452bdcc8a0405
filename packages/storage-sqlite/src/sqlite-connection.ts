import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { checkpointInBackground } from './sqlite-checkpointer.ts';

/** Prepared statements kept per connection; SQL texts are few (shapes, not values), so this rarely evicts. */
const STATEMENT_CACHE_SIZE = 500;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/**
 * The one SQLite connection of a store. Every statement runs synchronously on it, so a
 * transaction opened and closed within one call is never interleaved with another caller's
 * statements: that, and BEGIN IMMEDIATE against other processes, is the store's consistency model.
 */
export class SqliteConnection {
  readonly #db: DatabaseSync;
  /** LRU by SQL text: Map keeps insertion order, a hit moves the entry to the end. */
  readonly #statements = new Map<string, StatementSync>();
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #releaseCheckpointer: (() => Promise<void>) | undefined;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
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

  /** Runs `work` between BEGIN IMMEDIATE and COMMIT; any error rolls everything back. */
  transaction<R>(work: () => R): R {
    // Statements are synchronous, so a transaction is open here only if `work` itself nests one.
    if (this.#db.isTransaction) return work();
    this.#begin.run();
    try {
      const result = work();
      this.#commit.run();
      return result;
    } catch (error) {
      // SQLite may have rolled back by itself already (e.g. on SQLITE_FULL).
      if (this.#db.isTransaction) this.#rollback.run();
      throw error;
    }
  }

  /** Closes after the checkpointer's connection, so SQLite folds the WAL back into the file. */
  async close(): Promise<void> {
    this.#statements.clear();
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
