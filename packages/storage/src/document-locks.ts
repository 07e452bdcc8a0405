import { randomUUID } from 'node:crypto';
import type { Collection as DriverCollection } from 'mongodb';
import { StorageUnavailableError } from './document-store.ts';

const LEASE_MS = 5_000;
const GIVE_UP_MS = 10_000;

/**
 * Per-document mutual exclusion built on the one write every MongoDB-wire server makes atomic:
 * inserting a unique `_id`. Used only where the server does not apply a conditional update
 * atomically (FerretDB v1; see docs/ferretdb.md). A lease expires, so a crashed holder blocks others
 * for at most LEASE_MS.
 */
export class DocumentLocks {
  readonly #locks: DriverCollection<any>;
  /** Waiters of this process queue here first, so each key has at most one poller per process. */
  readonly #local = new Map<string, Promise<unknown>>();

  constructor(locks: DriverCollection<any>) {
    this.#locks = locks;
  }

  withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#local.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.#withDatabaseLock(key, work));
    this.#local.set(key, next);
    void next.finally(() => {
      if (this.#local.get(key) === next) this.#local.delete(key);
    }).catch(() => undefined);
    return next;
  }

  async #withDatabaseLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    const started = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.#locks.insertOne({ _id: key, token, expiresAt: Date.now() + LEASE_MS });
        break;
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
        await this.#locks.deleteOne({ _id: key, expiresAt: { $lt: Date.now() } });
        if (Date.now() - started > GIVE_UP_MS) throw new StorageUnavailableError(`Timed out waiting for a lock on ${key}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt * 2) * (0.5 + Math.random())));
      }
    }
    try {
      return await work();
    } finally {
      await this.#locks.deleteOne({ _id: key, token });
    }
  }
}
