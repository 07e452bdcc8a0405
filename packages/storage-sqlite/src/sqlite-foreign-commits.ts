import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * How often, at most, a connection asks SQLite whether another process has committed. Asking is a
 * statement with its own read lock (two `fcntl` calls): on every read it cost ≈5 µs of a ≈70 µs API
 * read, measured. Once every 5 ms makes it a rounding error under load and still shows another
 * process's write (the admin command's) within 5 ms.
 */
export const FOREIGN_COMMIT_CHECK_MS = 5;

/** The connections of this process, per database file: a commit on one is told to the others at once. */
const connectionsByFile = new Map<string, Set<ForeignCommits>>();

/**
 * Notices commits made by other connections to the same database file, and calls `onForeignCommit`
 * (which forgets the read cache). In this process: told synchronously by the committing
 * connection. In another process (`crawl-server admin`, a second server on the same data
 * directory): SQLite's `PRAGMA data_version`, which changes on exactly those commits and never on
 * the connection's own.
 */
export class ForeignCommits {
  readonly #file: string;
  readonly #dataVersion: StatementSync;
  readonly #onForeignCommit: () => void;
  #lastVersion: unknown;
  #checkedAt = Number.NEGATIVE_INFINITY;

  constructor(db: DatabaseSync, file: string, onForeignCommit: () => void) {
    this.#file = file;
    this.#onForeignCommit = onForeignCommit;
    this.#dataVersion = db.prepare('PRAGMA data_version');
    this.#lastVersion = this.#dataVersion.get()?.data_version;
    if (file === ':memory:') return;
    let peers = connectionsByFile.get(file);
    if (!peers) connectionsByFile.set(file, (peers = new Set()));
    peers.add(this);
  }

  /** Before a cached read: another process's commit since the last check empties the cache. */
  check(): void {
    if (this.#file === ':memory:') return;
    const now = performance.now();
    if (now - this.#checkedAt < FOREIGN_COMMIT_CHECK_MS) return;
    this.#checkedAt = now;
    const version = this.#dataVersion.get()?.data_version;
    if (version === this.#lastVersion) return;
    this.#lastVersion = version;
    this.#onForeignCommit();
  }

  /** After this connection commits: the other connections of this process on the file forget at once. */
  committed(): void {
    const peers = connectionsByFile.get(this.#file);
    if (!peers || peers.size < 2) return;
    for (const peer of peers) if (peer !== this) peer.#onForeignCommit();
  }

  close(): void {
    const peers = connectionsByFile.get(this.#file);
    peers?.delete(this);
    if (peers?.size === 0) connectionsByFile.delete(this.#file);
  }
}
