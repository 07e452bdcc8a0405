import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Collection as DriverCollection } from 'mongodb';
import { StorageUnavailableError } from '@crawl/storage';

export interface DocumentLocksOptions {
  /** A holder that crashed blocks the key for at most this long. Default 5 s. */
  leaseMs?: number;
  /**
   * How long one process keeps a lock to hand it from one of its own waiters to the next before it
   * releases it so other processes get a turn. Default 1 s; must stay well under the lease.
   */
  handoffMs?: number;
  /** First retry delay after finding a key locked by another process; doubles up to `maxBackoffMs`. Default 4 ms. */
  initialBackoffMs?: number;
  /** Longest pause between two tries of a waiting process (jittered). Default 100 ms. */
  maxBackoffMs?: number;
}

/** Counters for tests and benchmarks: how the locks behaved so far. */
export interface DocumentLockStats {
  /** Lock documents inserted (one per chain of same-process work on a key). */
  acquired: number;
  /** Work run on a lock the process already held: no insert, no delete. */
  handedOff: number;
  /** Inserts that found the key held by someone else. */
  contended: number;
  /** Expired locks of crashed holders removed. */
  staleCleared: number;
  /** Waiters that gave up at their deadline. */
  timedOut: number;
}

interface Waiter {
  deadline: number;
  work: (until: number) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

interface Held {
  token: string;
  /** When the insert was sent: the lease counts from here. */
  since: number;
}

/** Expired locks are looked for on every STALE_CHECK_EVERY-th failed try. */
const STALE_CHECK_EVERY = 4;
/** Work under a lock must be done this long before the lease ends. */
const LEASE_MARGIN_MS = 500;

/**
 * Per-document mutual exclusion built on the one write every MongoDB-wire server makes atomic:
 * inserting a unique `_id`. Used only where the server does not apply updates atomically
 * (FerretDB v1; see docs/ferretdb.md).
 *
 * - Waiters of one process queue in memory, so a key has at most one poller per process.
 * - A process that holds a key and has more waiters for it hands the lock from one to the next
 *   without deleting and re-inserting it (one round trip per update instead of three), for up to
 *   `handoffMs`; then it releases and lets other processes in.
 * - The release is not on the caller's path: the caller gets its answer when its work is done.
 * - A process that finds a key held by another retries with jittered exponential backoff, never
 *   past the latest deadline of its waiters; each waiter fails with StorageUnavailableError (503)
 *   at its own deadline.
 * - A lease bounds how long a crashed holder blocks others; work under a lock is given a deadline
 *   that ends before the lease does.
 */
export class DocumentLocks {
  // biome-ignore lint/suspicious/noExplicitAny: documents of every collection, string `_id`s the driver's default types (ObjectId) do not allow.
  readonly #locks: DriverCollection<any>;
  readonly #queues = new Map<string, Waiter[]>();
  readonly #leaseMs: number;
  readonly #handoffMs: number;
  readonly #initialBackoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #stats: DocumentLockStats = { acquired: 0, handedOff: 0, contended: 0, staleCleared: 0, timedOut: 0 };

  // biome-ignore lint/suspicious/noExplicitAny: documents of every collection, string `_id`s the driver's default types (ObjectId) do not allow.
  constructor(locks: DriverCollection<any>, options: DocumentLocksOptions = {}) {
    this.#locks = locks;
    this.#leaseMs = options.leaseMs ?? 5_000;
    this.#handoffMs = Math.min(options.handoffMs ?? 1_000, this.#leaseMs / 2);
    this.#initialBackoffMs = options.initialBackoffMs ?? 4;
    this.#maxBackoffMs = options.maxBackoffMs ?? 100;
  }

  get stats(): Readonly<DocumentLockStats> {
    return { ...this.#stats };
  }

  /**
   * Runs `work` while holding `key`, and settles with its result. `work` receives the time (epoch ms)
   * by which it must be done: the caller's deadline or the end of the lease, whichever is first.
   * @throws StorageUnavailableError when the lock is not had by `deadline` (epoch ms).
   */
  withLock<T>(key: string, deadline: number, work: (until: number) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { deadline, work, resolve: resolve as (value: unknown) => void, reject, timer: undefined, settled: false };
      waiter.timer = setTimeout(
        () => {
          if (waiter.settled) return;
          waiter.settled = true;
          this.#stats.timedOut += 1;
          reject(new StorageUnavailableError(`Timed out waiting for a lock on ${key}`));
        },
        Math.max(0, deadline - Date.now()),
      );
      const queue = this.#queues.get(key);
      if (queue) {
        queue.push(waiter);
        return;
      }
      const fresh = [waiter];
      this.#queues.set(key, fresh);
      void this.#drain(key, fresh);
    });
  }

  /** Serves the waiters of one key in order, holding the database lock across them when it can. */
  async #drain(key: string, queue: Waiter[]): Promise<void> {
    let held: Held | undefined;
    let yieldFirst = false;
    for (;;) {
      dropSettled(queue);
      if (queue.length === 0) {
        if (!held) {
          this.#queues.delete(key);
          return;
        }
        // A caller that just got its answer often updates the same document next: give it a turn.
        await nextTurn();
        dropSettled(queue);
        if (queue.length > 0) continue;
        await this.#release(key, held);
        held = undefined;
        continue;
      }
      if (held && Date.now() - held.since >= this.#handoffMs) {
        await this.#release(key, held);
        held = undefined;
        yieldFirst = true;
      }
      if (!held) {
        try {
          held = await this.#acquire(key, queue, yieldFirst);
        } catch (error) {
          const head = queue.shift();
          if (head && !head.settled) settle(head, () => head.reject(error));
          continue;
        } finally {
          yieldFirst = false;
        }
        if (!held) continue;
      } else {
        this.#stats.handedOff += 1;
      }
      const waiter = queue.shift() as Waiter;
      if (waiter.settled) continue;
      clearTimeout(waiter.timer);
      const until = Math.min(waiter.deadline, held.since + this.#leaseMs - LEASE_MARGIN_MS);
      try {
        const value = await waiter.work(until);
        settle(waiter, () => waiter.resolve(value));
      } catch (error) {
        settle(waiter, () => waiter.reject(error));
      }
    }
  }

  /** @returns the lock, or undefined when every waiter gave up first. */
  async #acquire(key: string, queue: Waiter[], yieldFirst: boolean): Promise<Held | undefined> {
    // After a long chain of its own work, this process steps back once so a waiting process can win.
    if (yieldFirst) await sleep(Math.random() * this.#maxBackoffMs);
    const token = randomUUID();
    let delay = this.#initialBackoffMs;
    for (let attempt = 0; ; attempt += 1) {
      const latest = latestDeadline(queue);
      if (latest === undefined) return undefined;
      const since = Date.now();
      try {
        await this.#locks.insertOne({ _id: key, token, expiresAt: since + this.#leaseMs }, { maxTimeMS: Math.max(1, latest - since) });
        this.#stats.acquired += 1;
        return { token, since };
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
      }
      this.#stats.contended += 1;
      if (attempt % STALE_CHECK_EVERY === STALE_CHECK_EVERY - 1) {
        const cleared = await this.#locks.deleteOne({ _id: key, expiresAt: { $lt: Date.now() } }, { maxTimeMS: Math.max(1, latest - Date.now()) });
        if (cleared.deletedCount > 0) {
          this.#stats.staleCleared += 1;
          continue;
        }
      }
      // At least 1 ms, so the deadline timers of waiters that ran out get to fire.
      await sleep(Math.max(1, Math.min(latest - Date.now(), delay * (0.5 + Math.random() / 2))));
      delay = Math.min(this.#maxBackoffMs, delay * 2);
    }
  }

  /** Best effort: a lock whose delete fails expires with its lease. */
  async #release(key: string, held: Held): Promise<void> {
    await this.#locks.deleteOne({ _id: key, token: held.token }, { maxTimeMS: this.#leaseMs }).catch(() => undefined);
  }
}

function settle(waiter: Waiter, action: () => void): void {
  if (waiter.settled) return;
  waiter.settled = true;
  clearTimeout(waiter.timer);
  action();
}

function dropSettled(queue: Waiter[]): void {
  while (queue.length > 0 && (queue[0] as Waiter).settled) queue.shift();
  // Settled waiters further back are skipped when their turn comes; remove them now so the
  // deadline scan and the "anyone left?" checks see only live ones.
  for (let index = queue.length - 1; index > 0; index -= 1) if ((queue[index] as Waiter).settled) queue.splice(index, 1);
}

function latestDeadline(queue: Waiter[]): number | undefined {
  let latest: number | undefined;
  for (const waiter of queue) if (!waiter.settled && (latest === undefined || waiter.deadline > latest)) latest = waiter.deadline;
  return latest;
}
