// Lock emulation on FerretDB: the adapter's locked conditional update against the raw driver's
// findOneAndUpdate (the FerretDB speed limit, but not safe there: it loses updates), in the same run
// and interleaved, at concurrency 1 and 20, on one document and on one document per worker.
// Also a driver baseline of what a growing collection costs FerretDB itself (10 vs 10,000 documents).
// Needs a MongoDB-wire server: BENCH_MONGO_URL or TEST_MONGO_URL (e.g. mongodb://127.0.0.1:27018/,
// FerretDB from scripts/ferretdb.sh); without one it says so and skips, like the storage bench's
// MongoDB variant. Works in its own `bench_locks_<random>` database, dropped at the end.
// Run: pnpm bench ferretdb-locks   (LOCKS_OPS=400 LOCKS_ROUNDS=3)
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as Mongo from 'mongodb';
import type { Collection } from '../packages/storage/src/index.ts';
import { MongoDocumentStore } from '../packages/storage-mongo/src/index.ts';

// The driver is a dependency of @crawl/storage, not of the workspace root.
const { MongoClient } = createRequire(new URL('../packages/storage-mongo/package.json', import.meta.url))('mongodb') as typeof Mongo;

const URL_ = process.env.BENCH_MONGO_URL || process.env.TEST_MONGO_URL || undefined;
const OPS = Number(process.env.LOCKS_OPS ?? 400);
const ROUNDS = Number(process.env.LOCKS_ROUNDS ?? 3);

interface Balance {
  _id: string;
  n: number;
}

interface Scenario {
  name: string;
  concurrency: number;
  sameDocument: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: 'c=1, one document', concurrency: 1, sameDocument: true },
  { name: 'c=20, one document', concurrency: 20, sameDocument: true },
  { name: 'c=20, a document per worker', concurrency: 20, sameDocument: false },
];

interface Sample {
  ms: number;
  latencies: number[];
  lost: number;
  errors: number;
}

type Variant = 'driver' | 'adapter';

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);
}

/** `ops` conditional decrements ({_id, n ≥ 1} → n − 1) spread over `concurrency` workers. */
async function runOnce(variant: Variant, scenario: Scenario, raw: Mongo.Collection<Balance>, adapted: Collection<Balance>): Promise<Sample> {
  const ids = Array.from({ length: scenario.sameDocument ? 1 : scenario.concurrency }, () => `b_${randomUUID().slice(0, 8)}`);
  const start = OPS * 10;
  await raw.insertMany(ids.map((_id) => ({ _id, n: start })));
  const latencies: number[] = [];
  let errors = 0;
  let applied = 0;
  const perWorker = Math.ceil(OPS / scenario.concurrency);
  const began = performance.now();
  await Promise.all(
    Array.from({ length: scenario.concurrency }, async (_, worker) => {
      const _id = ids[scenario.sameDocument ? 0 : worker] as string;
      for (let i = 0; i < perWorker; i += 1) {
        const t = performance.now();
        try {
          const result =
            variant === 'driver'
              ? await raw.findOneAndUpdate({ _id, n: { $gte: 1 } }, { $inc: { n: -1 } }, { returnDocument: 'after', maxTimeMS: 10_000 })
              : await adapted.updateOne({ _id, n: { $gte: 1 } }, { $inc: { n: -1 } });
          if (result) applied += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const ms = performance.now() - began;
  const finals = await raw.find({ _id: { $in: ids } }).toArray();
  const decremented = finals.reduce((sum, doc) => sum + (start - doc.n), 0);
  return { ms, latencies: latencies.sort((a, b) => a - b), lost: applied - decremented, errors };
}

/** Driver-only: what FerretDB itself charges as a collection grows (no adapter, no locks). */
async function scaleBaseline(db: Mongo.Db): Promise<void> {
  console.log('\n### FerretDB itself: driver operations at 10 vs 10,000 documents\n');
  console.log('| operation | 10 docs (ms, median of 20) | 10,000 docs (ms, median of 20) | ratio |');
  console.log('| --- | --- | --- | --- |');
  const results = new Map<string, number[]>();
  for (const size of [10, 10_000]) {
    const c = db.collection<{ _id: string; org: string; status: string; createdAt: string; pad: string }>(`scale_${size}`);
    await c.createIndex({ org: 1, createdAt: -1 });
    for (let done = 0; done < size; done += 1000) {
      const batch = Math.min(1000, size - done);
      await c.insertMany(
        Array.from({ length: batch }, (_, i) => ({
          _id: `j_${done + i}`,
          org: 'org_a',
          status: (done + i) % 10 === 0 ? 'running' : 'completed',
          createdAt: new Date(Date.UTC(2026, 0, 1) + (done + i) * 1000).toISOString(),
          pad: 'x'.repeat(300),
        })),
      );
    }
    const ops: Array<[string, () => Promise<unknown>]> = [
      ['insertOne', () => c.insertOne({ _id: `new_${randomUUID()}`, org: 'org_b', status: 'queued', createdAt: new Date().toISOString(), pad: '' })],
      ['findOne by _id', () => c.findOne({ _id: 'j_5' })],
      ['findOneAndUpdate by _id', () => c.findOneAndUpdate({ _id: 'j_5' }, { $set: { status: 'running' } })],
      ['count {org, status}', () => c.countDocuments({ org: 'org_a', status: 'running' })],
      ['find {org} sort createdAt desc limit 20', () => c.find({ org: 'org_a' }).sort({ createdAt: -1 }).limit(20).toArray()],
    ];
    for (const [name, op] of ops) {
      const times: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const t = performance.now();
        await op();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      results.set(name, [...(results.get(name) ?? []), percentile(times, 50)]);
    }
  }
  for (const [name, [small, large]] of results) {
    console.log(`| ${name} | ${(small as number).toFixed(2)} | ${(large as number).toFixed(2)} | ${((large as number) / (small as number)).toFixed(1)}× |`);
  }
}

export async function main(): Promise<void> {
  if (!URL_) {
    console.log('(skipped: set BENCH_MONGO_URL or TEST_MONGO_URL to a MongoDB-wire server, e.g. `BENCH_MONGO_URL=$(scripts/ferretdb.sh start)`)');
    return;
  }
  const database = `bench_locks_${randomUUID().slice(0, 8)}`;
  const client = new MongoClient(URL_, { retryWrites: false });
  const db = client.db(database);
  const store = new MongoDocumentStore({ url: URL_, database });
  try {
    const info = await db.admin().command({ buildInfo: 1 });
    console.log(
      `server: ${'ferretdbVersion' in info ? `FerretDB ${info.ferretdbVersion}` : `MongoDB ${info.version}`}; adapter uses lock documents: ${await store.usesLockedUpdates()}`,
    );
    console.log(`${OPS} conditional decrements per figure, ${ROUNDS} interleaved rounds, medians\n`);
    const raw = db.collection<Balance>('balances');
    const adapted = store.collection<Balance>('balances');
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const scenario of SCENARIOS) {
        const order: Variant[] = round % 2 === 0 ? ['driver', 'adapter'] : ['adapter', 'driver'];
        for (const variant of order) {
          const key = `${scenario.name}|${variant}`;
          samples.set(key, [...(samples.get(key) ?? []), await runOnce(variant, scenario, raw, adapted)]);
        }
      }
    }
    console.log('| scenario | variant | ops/s | p50 ms | p99 ms | lost updates | errors |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const scenario of SCENARIOS) {
      const rates: Record<string, number> = {};
      for (const variant of ['driver', 'adapter'] as const) {
        const runs = samples.get(`${scenario.name}|${variant}`) ?? [];
        const byRate = [...runs].sort((a, b) => OPS / a.ms - OPS / b.ms);
        const median = byRate[Math.floor(byRate.length / 2)] as Sample;
        const rate = (median.latencies.length / median.ms) * 1000;
        rates[variant] = rate;
        const lost = runs.reduce((sum, run) => sum + run.lost, 0);
        const errors = runs.reduce((sum, run) => sum + run.errors, 0);
        console.log(
          `| ${scenario.name} | ${variant} | ${rate.toFixed(0)} | ${percentile(median.latencies, 50).toFixed(2)} | ${percentile(median.latencies, 99).toFixed(2)} | ${lost} of ${runs.length * OPS} | ${errors} |`,
        );
      }
      console.log(`| ${scenario.name} | adapter ÷ driver | ${((rates.adapter as number) / (rates.driver as number)).toFixed(2)} | | | | |`);
    }
    const stats = await store.lockStats();
    if (stats)
      console.log(
        `\nlock documents: ${stats.acquired} inserted, ${stats.handedOff} updates ran on a handed-over lock, ${stats.contended} inserts found the key held, ${stats.timedOut} waits timed out`,
      );
    await scaleBaseline(db);
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await store.close();
    await client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
