// Fair-dispatch benchmark: organization A enqueues 1,000 tasks, then B enqueues 10. How long does
// B wait compared with B alone on an idle queue, and what does A lose? Runs on the in-process
// adapter, and on BullMQ when REDIS_URL or TEST_REDIS_URL is set (its own key prefix, removed after).
// Run: pnpm bench fairness   (FAIRNESS_TASK_MS=10 or a range like 5-20, FAIRNESS_CONCURRENCY=4, FAIRNESS_BACKLOG=1000, FAIRNESS_ROUNDS=3)
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { QueueProvider } from '@crawl/queue';
import { BullMqQueueProvider } from '@crawl/queue-bullmq';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';

/** Task duration range `min-max` ms (or one fixed value); each task's duration is fixed by its index. */
const [TASK_MIN_MS, TASK_MAX_MS] = (() => {
  const [min, max] = (process.env.FAIRNESS_TASK_MS ?? '10').split('-').map(Number) as [number, number | undefined];
  return [min, max ?? min];
})();
/** Deterministic spread over [min, max]: the same task takes the same time in every run. */
const taskMs = (org: string, n: number) => TASK_MIN_MS + (((n * 7919 + (org === 'B' ? 104_729 : 0)) % 1000) / 999) * (TASK_MAX_MS - TASK_MIN_MS);
const CONCURRENCY = Number(process.env.FAIRNESS_CONCURRENCY ?? 4);
const BACKLOG = Number(process.env.FAIRNESS_BACKLOG ?? 1000);
const SMALL = 10;
/** Backlog runs per figure (medians are reported); B alone is the median of 5 runs. */
const ROUNDS = Number(process.env.FAIRNESS_ROUNDS ?? 3);
const ENQUEUE_CHUNK = 50;

interface Task {
  org: string;
  n: number;
}

export interface FairnessResult {
  adapter: string;
  /** B's 10 tasks, from B's first add to B's last completion, on an idle queue (median of 5 runs). */
  bAloneMs: number;
  /** The same with A's backlog queued first (median of ROUNDS runs, like the A figures). */
  bWithBacklogMs: number;
  ratio: number;
  /** A's 1,000 tasks alone, from first add to last completion. */
  aAloneMs: number;
  /** A's 1,000 tasks when B's 10 arrive right after them. */
  aWithBMs: number;
  /** 1 − (A's throughput with B ÷ A's throughput alone). */
  aThroughputLoss: number;
  /** B's completion time with every task in one FIFO group (what fair dispatch avoids). */
  bFifoMs: number;
}

type Open = () => Promise<{ provider: QueueProvider; cleanup: () => Promise<void> }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run: optionally A's backlog, then optionally B's tasks; times per organization. */
async function run(open: Open, options: { a: boolean; b: boolean; fifo?: boolean }): Promise<{ aMs: number; bMs: number }> {
  const { provider, cleanup } = await open();
  const queue = provider.queue<Task>({
    name: `fairness-${randomUUID().slice(0, 8)}`,
    retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 },
    parse: (p) => p as Task,
  });
  const expected = { A: options.a ? BACKLOG : 0, B: options.b ? SMALL : 0 };
  const done = { A: 0, B: 0 };
  const finishedAt = { A: 0, B: 0 };
  let resolveAll!: () => void;
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  await queue.process(
    async (job) => {
      await sleep(taskMs(job.payload.org, job.payload.n));
      const org = job.payload.org as 'A' | 'B';
      done[org] += 1;
      if (done[org] === expected[org]) finishedAt[org] = performance.now();
      if (done.A === expected.A && done.B === expected.B) resolveAll();
    },
    { concurrency: CONCURRENCY },
  );
  const enqueue = async (org: 'A' | 'B', count: number) => {
    for (let start = 0; start < count; start += ENQUEUE_CHUNK) {
      await Promise.all(
        Array.from({ length: Math.min(ENQUEUE_CHUNK, count - start) }, (_, i) =>
          queue.add({ org, n: start + i }, { jobId: `${org}-${start + i}`, group: options.fifo ? 'everyone' : org }),
        ),
      );
    }
  };
  const aStart = performance.now();
  if (options.a) await enqueue('A', BACKLOG);
  const bStart = performance.now();
  if (options.b) await enqueue('B', SMALL);
  await all;
  await provider.close(0);
  await cleanup();
  return { aMs: options.a ? finishedAt.A - aStart : 0, bMs: options.b ? finishedAt.B - bStart : 0 };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;

async function measure(adapter: string, open: Open): Promise<FairnessResult> {
  await run(open, { a: false, b: true }); // warm-up
  const bAlone = median(await sequence(5, async () => (await run(open, { a: false, b: true })).bMs));
  const aAlone = median(await sequence(ROUNDS, async () => (await run(open, { a: true, b: false })).aMs));
  const mixed = await sequence(ROUNDS, () => run(open, { a: true, b: true }));
  const bWithBacklog = median(mixed.map((m) => m.bMs));
  const aWithB = median(mixed.map((m) => m.aMs));
  const fifo = await run(open, { a: true, b: true, fifo: true });
  return {
    adapter,
    bAloneMs: bAlone,
    bWithBacklogMs: bWithBacklog,
    ratio: bWithBacklog / bAlone,
    aAloneMs: aAlone,
    aWithBMs: aWithB,
    aThroughputLoss: 1 - aAlone / aWithB,
    bFifoMs: fifo.bMs,
  };
}

async function sequence<T>(times: number, step: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < times; i += 1) out.push(await step());
  return out;
}

export async function runFairnessBench(): Promise<FairnessResult[]> {
  const results: FairnessResult[] = [];
  results.push(await measure('in-process', async () => ({ provider: new InProcessQueueProvider(), cleanup: async () => undefined })));
  const url = process.env.REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (url) {
    results.push(
      await measure('bullmq', async () => {
        const prefix = `bench${randomUUID().slice(0, 8)}`;
        return {
          provider: new BullMqQueueProvider({ url, prefix }),
          cleanup: async () => {
            const client = openRedis(url);
            await deleteKeys(client, `${prefix}:*`);
            await closeRedis(client);
          },
        };
      }),
    );
  } else {
    console.log('(BullMQ skipped: set REDIS_URL or TEST_REDIS_URL to include it)\n');
  }
  return results;
}

export async function main(): Promise<void> {
  console.log(
    `A enqueues ${BACKLOG} tasks, then B enqueues ${SMALL}; each task ${TASK_MIN_MS === TASK_MAX_MS ? TASK_MIN_MS : `${TASK_MIN_MS}–${TASK_MAX_MS}`} ms of async work; concurrency ${CONCURRENCY}.\n`,
  );
  const results = await runFairnessBench();
  console.log("| adapter | B alone ms | B after A's backlog ms | ratio (target ≤ 2) | B if FIFO ms | A alone ms | A with B ms | A throughput loss |");
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.adapter} | ${r.bAloneMs.toFixed(0)} | ${r.bWithBacklogMs.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.bFifoMs.toFixed(0)} | ${r.aAloneMs.toFixed(0)} | ${r.aWithBMs.toFixed(0)} | ${(r.aThroughputLoss * 100).toFixed(1)} % |`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
