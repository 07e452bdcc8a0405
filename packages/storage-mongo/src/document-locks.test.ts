import { randomUUID } from 'node:crypto';
import type { Collection as DriverCollection } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { DocumentLocks } from './document-locks.ts';
import { StorageUnavailableError } from '@crawl/storage';
import { MongoDocumentStore } from './mongo-document-store.ts';
import { mongoTestServer } from './testing/mongo-test-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LockDoc {
  _id: string;
  token: string;
  expiresAt: number;
}

/** The two writes DocumentLocks makes, with a round-trip delay and counters. */
class FakeLockCollection {
  readonly docs = new Map<string, LockDoc>();
  inserts = 0;
  deletes = 0;
  readonly latencyMs: number;
  constructor(latencyMs = 1) {
    this.latencyMs = latencyMs;
  }

  async insertOne(doc: LockDoc): Promise<unknown> {
    await sleep(this.latencyMs);
    this.inserts += 1;
    if (this.docs.has(doc._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
    this.docs.set(doc._id, { ...doc });
    return { acknowledged: true };
  }

  async deleteOne(filter: { _id: string; token?: string; expiresAt?: { $lt: number } }): Promise<{ deletedCount: number }> {
    await sleep(this.latencyMs);
    this.deletes += 1;
    const doc = this.docs.get(filter._id);
    if (!doc || (filter.token !== undefined && doc.token !== filter.token) || (filter.expiresAt && !(doc.expiresAt < filter.expiresAt.$lt)))
      return { deletedCount: 0 };
    this.docs.delete(filter._id);
    return { deletedCount: 1 };
  }

  /** Another process holds `key` until it is deleted or expires. */
  holdElsewhere(key: string, expiresAt: number): void {
    this.docs.set(key, { _id: key, token: 'elsewhere', expiresAt });
  }
}

function locksOn(fake: FakeLockCollection, options: ConstructorParameters<typeof DocumentLocks>[1] = {}): DocumentLocks {
  return new DocumentLocks(fake as unknown as DriverCollection<any>, options);
}

/** Work that fails the test if two holders ever overlap. */
function exclusiveWork(): { work: (ms?: number) => () => Promise<number>; maxConcurrent: () => number } {
  let running = 0;
  let max = 0;
  let done = 0;
  return {
    work:
      (ms = 1) =>
      async () => {
        running += 1;
        max = Math.max(max, running);
        await sleep(ms);
        running -= 1;
        done += 1;
        return done;
      },
    maxConcurrent: () => max,
  };
}

describe('DocumentLocks', () => {
  it('hands one lock document through all waiters of a process, and releases it after the last caller has its answer', async () => {
    const fake = new FakeLockCollection();
    const locks = locksOn(fake);
    const { work, maxConcurrent } = exclusiveWork();
    const results = await Promise.all(Array.from({ length: 50 }, () => locks.withLock('k', Date.now() + 5_000, work())));
    expect(results.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(maxConcurrent()).toBe(1);
    // One insert for the whole burst, 49 hand-overs, and the caller was answered before the release.
    expect(fake.inserts).toBe(1);
    expect(locks.stats).toMatchObject({ acquired: 1, handedOff: 49, contended: 0 });
    expect(fake.docs.has('k')).toBe(true);
    await sleep(30);
    expect(fake.docs.size).toBe(0);
    expect(fake.deletes).toBe(1);
  });

  it('keeps the lock for a caller that updates the same document right after its answer', async () => {
    const fake = new FakeLockCollection();
    const locks = locksOn(fake);
    for (let i = 0; i < 20; i += 1) await locks.withLock('k', Date.now() + 5_000, async () => i);
    expect(fake.inserts).toBe(1);
    await sleep(30);
    expect(fake.docs.size).toBe(0);
  });

  it('waits for another process with jittered backoff, not a polling storm, and fails each waiter at its deadline', async () => {
    const fake = new FakeLockCollection();
    fake.holdElsewhere('k', Date.now() + 60_000);
    const locks = locksOn(fake);
    const started = Date.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => locks.withLock('k', started + 600 + i * 40, async () => 'ran')));
    const elapsed = Date.now() - started;
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof StorageUnavailableError)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(940);
    expect(elapsed).toBeLessThan(1_500);
    // One poller for the ten waiters: 4, 8, 16, 32, 64 ms, then every ~100 ms (jittered) for ~1 s.
    expect(fake.inserts).toBeGreaterThanOrEqual(5);
    expect(fake.inserts).toBeLessThanOrEqual(25);
    expect(locks.stats.timedOut).toBe(10);
  });

  it('gets the lock soon after the other process releases it', async () => {
    const fake = new FakeLockCollection();
    fake.holdElsewhere('k', Date.now() + 60_000);
    const locks = locksOn(fake);
    setTimeout(() => fake.docs.delete('k'), 300);
    const started = Date.now();
    await expect(locks.withLock('k', started + 5_000, async () => 'ran')).resolves.toBe('ran');
    // Polls back off to ~100 ms (jittered): well before its 5 s deadline, with room for a busy machine's timers.
    expect(Date.now() - started).toBeLessThan(300 + 400);
    expect(locks.stats.contended).toBeGreaterThan(0);
  });

  it('clears the expired lock of a crashed holder', async () => {
    const fake = new FakeLockCollection();
    fake.holdElsewhere('k', Date.now() - 1);
    const locks = locksOn(fake);
    await expect(locks.withLock('k', Date.now() + 5_000, async () => 'ran')).resolves.toBe('ran');
    expect(locks.stats.staleCleared).toBe(1);
  });

  it('holds a key for its own waiters for at most handoffMs, then releases it and takes it anew', async () => {
    const fake = new FakeLockCollection();
    const locks = locksOn(fake, { handoffMs: 40, maxBackoffMs: 10 });
    const { work, maxConcurrent } = exclusiveWork();
    await Promise.all(Array.from({ length: 20 }, () => locks.withLock('k', Date.now() + 5_000, work(10))));
    expect(maxConcurrent()).toBe(1);
    // ~200 ms of work in chains of ≤ 40 ms.
    expect(fake.inserts).toBeGreaterThanOrEqual(4);
    expect(fake.inserts).toBeLessThan(20);
  });

  it('gives work a deadline that ends before the lease', async () => {
    const locks = locksOn(new FakeLockCollection(), { leaseMs: 2_000 });
    const before = Date.now();
    const until = await locks.withLock('k', Date.now() + 60_000, async (until) => until);
    expect(until).toBeLessThanOrEqual(before + 2_000);
    expect(until).toBeGreaterThan(before + 1_000);
    const short = Date.now() + 300;
    expect(await locks.withLock('k', short, async (until) => until)).toBe(short);
  });

  it('rejects only the caller whose work failed; the next one runs', async () => {
    const locks = locksOn(new FakeLockCollection());
    const failing = locks.withLock('k', Date.now() + 5_000, async () => {
      throw new Error('boom');
    });
    const next = locks.withLock('k', Date.now() + 5_000, async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('keeps keys independent', async () => {
    const fake = new FakeLockCollection(20);
    const locks = locksOn(fake);
    const started = Date.now();
    await Promise.all(['a', 'b', 'c', 'd'].map((key) => locks.withLock(key, Date.now() + 5_000, () => sleep(250))));
    // Run side by side: well under 4 × 250 ms.
    expect(Date.now() - started).toBeLessThan(700);
    expect(fake.inserts).toBe(4);
  });
});

const found = await mongoTestServer();

describe('locked updates on a MongoDB-wire server (FerretDB in CI)', () => {
  const withStores = async (
    count: number,
    test: (stores: MongoDocumentStore[], database: string) => Promise<void>,
    context: { skip: (reason: string) => void },
  ) => {
    if (!('server' in found)) {
      console.warn(`[locked updates test skipped] ${found.skipReason}`);
      context.skip(found.skipReason);
      return;
    }
    const database = `locks_${randomUUID().slice(0, 8)}`;
    // A generous time limit: these tests are about correctness, and a shared CI server can be slow.
    const stores = Array.from(
      { length: count },
      () => new MongoDocumentStore({ url: found.server.url, database, lockedUpdates: 'always', operationTimeoutMs: 60_000 }),
    );
    try {
      await test(stores, database);
    } finally {
      await stores[0]?.dropDatabase().catch(() => undefined);
      await Promise.all(stores.map((store) => store.close()));
    }
  };

  it('lets exactly the affordable updates through when 120 race on one document, on one lock document', async (context) => {
    await withStores(
      1,
      async ([store]) => {
        const balances = (store as MongoDocumentStore).collection<{ _id: string; n: number }>('balances');
        await balances.insertOne({ _id: 'org', n: 100 });
        const started = Date.now();
        const results = await Promise.all(Array.from({ length: 120 }, () => balances.updateOne({ _id: 'org', n: { $gte: 1 } }, { $inc: { n: -1 } })));
        const elapsed = Date.now() - started;
        expect(results.filter(Boolean)).toHaveLength(100);
        expect((await balances.findOne({ _id: 'org' }))?.n).toBe(0);
        const stats = await (store as MongoDocumentStore).lockStats();
        expect(stats?.timedOut).toBe(0);
        // Contention in one process is settled in memory: one lock insert per second of hand-overs
        // (handoffMs), not one per update.
        expect(stats?.acquired).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
        expect((stats?.acquired ?? 0) + (stats?.handedOff ?? 0)).toBe(120);
      },
      context,
    );
  }, 120_000);

  it('loses no racing unconditional $inc or $push by _id (FerretDB itself does)', async (context) => {
    await withStores(
      1,
      async ([store]) => {
        const docs = (store as MongoDocumentStore).collection<{ _id: string; n: number; seen: number[] }>('counters');
        await docs.insertOne({ _id: 'c', n: 0, seen: [] });
        await Promise.all(
          Array.from({ length: 20 }, async (_, worker) => {
            for (let i = 0; i < 10; i += 1) await docs.updateOne({ _id: 'c' }, { $inc: { n: 1 }, $push: { seen: worker * 100 + i } });
          }),
        );
        const final = await docs.findOne({ _id: 'c' });
        expect(final?.n).toBe(200);
        expect(final?.seen).toHaveLength(200);
      },
      context,
    );
  }, 120_000);

  it('loses nothing when updateMany races updateOne on the same documents', async (context) => {
    await withStores(
      1,
      async ([store]) => {
        const docs = (store as MongoDocumentStore).collection<{ _id: string; group: string; n: number; m: number }>('mixed');
        await docs.insertMany(Array.from({ length: 4 }, (_, i) => ({ _id: `d${i}`, group: 'g', n: 0, m: 0 })));
        await Promise.all([
          ...Array.from({ length: 4 }, async (_, i) => {
            for (let k = 0; k < 10; k += 1) await docs.updateOne({ _id: `d${i}` }, { $inc: { n: 1 } });
          }),
          (async () => {
            for (let k = 0; k < 8; k += 1) expect(await docs.updateMany({ group: 'g' }, { $inc: { m: 1 } })).toBe(4);
          })(),
        ]);
        for (const doc of await docs.find({ group: 'g' })) expect(doc).toMatchObject({ n: 10, m: 8 });
      },
      context,
    );
  }, 120_000);

  it('keeps two processes racing on one document exact, without timeouts', async (context) => {
    await withStores(
      2,
      async (stores) => {
        const [a, b] = stores.map((store) => store.collection<{ _id: string; n: number }>('balances'));
        await a?.insertOne({ _id: 'org', n: 100 });
        const race = (collection: typeof a) =>
          Promise.all(Array.from({ length: 60 }, () => collection?.updateOne({ _id: 'org', n: { $gte: 1 } }, { $inc: { n: -1 } })));
        const [fromA, fromB] = await Promise.all([race(a), race(b)]);
        expect([...fromA, ...fromB].filter(Boolean)).toHaveLength(100);
        expect((await a?.findOne({ _id: 'org' }))?.n).toBe(0);
        for (const store of stores) expect((await store.lockStats())?.timedOut).toBe(0);
      },
      context,
    );
  }, 120_000);

  it('claims each matching document once when claims race on a filter without _id', async (context) => {
    await withStores(
      1,
      async ([store]) => {
        const tasks = (store as MongoDocumentStore).collection<{ _id: string; status: string; rank: number; by?: number }>('tasks');
        await tasks.insertMany(Array.from({ length: 8 }, (_, rank) => ({ _id: `t${rank}`, status: 'pending', rank })));
        const claims = await Promise.all(
          Array.from({ length: 14 }, (_, by) => tasks.updateOne({ status: 'pending' }, { $set: { status: 'claimed', by } }, { sort: { rank: 1 } })),
        );
        const won = claims.filter((claim) => claim !== null);
        expect(won).toHaveLength(8);
        expect(new Set(won.map((claim) => claim?._id)).size).toBe(8);
        expect(await tasks.count({ status: 'claimed' })).toBe(8);
      },
      context,
    );
  }, 120_000);

  it('creates one document when upserts race on the same filter', async (context) => {
    await withStores(
      1,
      async ([store]) => {
        const counters = (store as MongoDocumentStore).collection<{ _id: string; org: string; day: string; hits: number }>('daily');
        const results = await Promise.all(
          Array.from({ length: 10 }, () => counters.updateOne({ org: 'o', day: '2026-01-01' }, { $inc: { hits: 1 } }, { upsert: true })),
        );
        expect(new Set(results.map((doc) => doc?._id)).size).toBe(1);
        expect(await counters.count({ org: 'o' })).toBe(1);
        expect((await counters.findOne({ org: 'o' }))?.hits).toBe(10);
      },
      context,
    );
  }, 120_000);
});
