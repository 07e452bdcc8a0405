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

  constructor(locks: DriverCollection<any>) {
    this.#locks = locks;
  }

  async withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
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
