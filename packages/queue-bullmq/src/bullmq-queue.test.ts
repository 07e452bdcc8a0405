import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueDefinition } from '@crawl/queue';
import { describeWorkQueueContract } from '@crawl/queue/testing';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { freePort, privateRedis, redisTestServer } from '@crawl/redis/testing';
import type { BullMqOptions } from './bullmq-options.ts';
import { BullMqQueueProvider } from './bullmq-queue-provider.ts';

const found = await redisTestServer();

interface Payload {
  n: number;
}

const definition = (attempts = 3): QueueDefinition<Payload> => ({
  name: `bull-${randomUUID().slice(0, 8)}`,
  retry: { attempts, backoffMs: 5, maxBackoffMs: 20 },
  parse: (payload) => {
    if (typeof (payload as Payload)?.n !== 'number') throw new Error('payload.n must be a number');
    return payload as Payload;
  },
});

/** How long a queue event may take (polled, no fixed sleeps). */
const POLL = { timeout: 15_000, interval: 20 };

async function deleteQueueKeys(url: string, prefix: string): Promise<void> {
  const client = openRedis(url);
  try {
    await deleteKeys(client, `${prefix}:*`);
  } finally {
    await closeRedis(client);
  }
}

if ('server' in found) {
  const { server } = found;
  const prefixes: string[] = [];
  const providers: BullMqQueueProvider[] = [];
  const open = (extra: Partial<BullMqOptions> = {}, prefix = `t${randomUUID().slice(0, 8)}`) => {
    prefixes.push(prefix);
    const provider = new BullMqQueueProvider({ url: server.url, prefix, ...extra });
    providers.push(provider);
    return provider;
  };

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close(0)));
    for (const prefix of prefixes) await deleteQueueKeys(server.url, prefix);
    await server.stop();
  });

  describeWorkQueueContract('bullmq', async () => open({ lossCheckIntervalMs: 100 }), {
    loseTasks: (provider) => deleteQueueKeys(server.url, (provider as BullMqQueueProvider).prefix),
    noticeWithinMs: 1_000,
  });

  describe('BullMqQueue on Redis', () => {
    afterEach(async () => {
      await Promise.all(providers.splice(0).map((p) => p.close(0)));
    });

    it('returns the real BullMQ id: the custom id, stored under the queue prefix', async () => {
      const provider = open();
      const queue = provider.queue(definition());
      const { id } = await queue.add({ n: 1 }, { jobId: 'job_abc-0', group: 'org_1', delayMs: 60_000 });
      expect(id).toBe('job_abc-0');
      const client = openRedis(server.url);
      const stored = await client.hgetall(`${provider.prefix}:${queue.name}:job_abc-0`);
      await closeRedis(client);
      expect(stored.name).toBe('g:org_1');
      expect(JSON.parse(stored.data as string)).toEqual({ n: 1 });
      const generated = await queue.add({ n: 2 }, { delayMs: 60_000 });
      expect(generated.id).toMatch(/^\d+$/);
      await expect(queue.add({ n: 3 }, { jobId: 'a:b' })).rejects.toThrow(/':'/);
    });

    it('delivers each job once across two worker processes', async () => {
      const name = definition();
      const prefix = `t${randomUUID().slice(0, 8)}`;
      const [one, two] = [open({}, prefix).queue(name), open({}, prefix).queue(name)];
      const seen: string[] = [];
      const byWorker = { one: 0, two: 0 };
      await one.process(async (job) => void (seen.push(job.id), (byWorker.one += 1)), { concurrency: 3 });
      await two.process(async (job) => void (seen.push(job.id), (byWorker.two += 1)), { concurrency: 3 });
      const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => one.add({ n }, { jobId: `job_x-${n}`, group: n % 2 ? 'a' : 'b' })));
      await vi.waitUntil(() => seen.length >= 40, { ...POLL, message: '40 deliveries' });
      expect(seen.sort()).toEqual(ids.map((i) => i.id).sort());
      expect(new Set(seen).size).toBe(40);
      const stats = await one.stats();
      expect(stats).toMatchObject({ waiting: 0, delayed: 0 });
      await vi.waitUntil(async () => (await one.stats()).completed === 40, { ...POLL, message: 'completed count' });
    });

    it('hands a job whose worker died mid-task to another worker (stalled recovery)', async () => {
      const name = definition();
      const prefix = `t${randomUUID().slice(0, 8)}`;
      const fast = { lockDurationMs: 600, stalledIntervalMs: 300 };
      const dying = open(fast, prefix);
      const first = dying.queue(name);
      let release!: () => void;
      const stuck = new Promise<void>((r) => (release = r));
      const started: string[] = [];
      await first.process(
        async (job) => {
          started.push(job.id);
          await stuck;
        },
        { concurrency: 1 },
      );
      await first.add({ n: 1 }, { jobId: 'job_s-0' });
      await vi.waitUntil(() => started.length === 1, { ...POLL, message: 'the first worker to start the job' });
      // The worker goes away without finishing: no completion, no lock renewal.
      await first.close(0);
      const rescuer = open(fast, prefix).queue(name);
      const recovered: Array<{ id: string; attempt: number }> = [];
      await rescuer.process(async (job) => void recovered.push({ id: job.id, attempt: job.attempt }), { concurrency: 1 });
      await vi.waitUntil(() => recovered.length === 1, { ...POLL, message: 'the stalled job to be processed again' });
      release();
      expect(recovered).toEqual([{ id: 'job_s-0', attempt: 1 }]);
    });

    it('hands jobs back without spending an attempt when closed mid-task', async () => {
      const name = definition(1);
      const prefix = `t${randomUUID().slice(0, 8)}`;
      const first = open({}, prefix).queue(name);
      const stopping = new AbortController();
      let started = 0;
      await first.process(
        async () => {
          started += 1;
          await new Promise((_, reject) => stopping.signal.addEventListener('abort', () => reject(new Error('aborted by shutdown'))));
        },
        { concurrency: 1 },
      );
      await first.add({ n: 1 }, { jobId: 'job_h-0' });
      await vi.waitUntil(() => started === 1, { ...POLL, message: 'the job to start' });
      const closing = first.close(5_000);
      stopping.abort();
      await closing;
      const second = open({}, prefix).queue(name);
      const attempts: number[] = [];
      await second.process(async (job) => void attempts.push(job.attempt), { concurrency: 1 });
      await vi.waitUntil(() => attempts.length === 1, { ...POLL, message: 'the handed-back job' });
      expect(attempts).toEqual([1]);
    });

    it("decides the last attempt by the producer's attempts, not the consumer's definition", async () => {
      const name = definition(3).name;
      const prefix = `t${randomUUID().slice(0, 8)}`;
      // Catalog with CRAWL_TASK_ATTEMPTS=1 produces; a worker opened with the default 3 consumes.
      const producer = open({}, prefix).queue({ ...definition(1), name });
      const consumer = open({}, prefix).queue({ ...definition(3), name });
      const failures: string[] = [];
      let calls = 0;
      await consumer.process(
        async () => {
          calls += 1;
          throw new Error('broken');
        },
        { concurrency: 1, onFailed: (job) => void failures.push(`${job.attempt}/${job.maxAttempts}`) },
      );
      await producer.add({ n: 1 }, { jobId: 'job_m-0' });
      await vi.waitUntil(() => failures.length === 1, { ...POLL, message: 'the failure to be reported on the only attempt' });
      expect(failures).toEqual(['1/1']);
      expect(calls).toBe(1);
    });

    it('keeps the id known while active: re-adding a running task is a no-op', async () => {
      const queue = open().queue(definition());
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let runs = 0;
      await queue.process(
        async () => {
          runs += 1;
          await gate;
        },
        { concurrency: 2 },
      );
      await queue.add({ n: 1 }, { jobId: 'job_r-0' });
      await vi.waitUntil(() => runs === 1, { ...POLL, message: 'the job to start' });
      await queue.add({ n: 1 }, { jobId: 'job_r-0' });
      expect((await queue.stats()).waiting).toBe(0);
      release();
      await vi.waitUntil(async () => (await queue.stats()).completed === 1, { ...POLL, message: 'completion' });
      // Finished tasks are removed: the same id can be enqueued again (catalog re-enqueues open targets).
      await queue.add({ n: 1 }, { jobId: 'job_r-0' });
      await vi.waitUntil(() => runs === 2, { ...POLL, message: 'the re-added job' });
    });
  });

  describe('BullMqQueue and Redis outages', () => {
    it('workers resume after a Redis restart', async () => {
      const privately = await privateRedis();
      if (!('redis' in privately)) throw new Error(privately.skipReason);
      const { redis } = privately;
      const provider = new BullMqQueueProvider({ url: redis.url, prefix: 'restart', commandTimeoutMs: 1_000 });
      try {
        const queue = provider.queue(definition());
        const done: number[] = [];
        await queue.process(async (job) => void done.push(job.payload.n), { concurrency: 2 });
        await queue.add({ n: 1 });
        await vi.waitUntil(() => done.includes(1), { ...POLL, message: 'the job before the restart' });
        await redis.kill();
        await expect(queue.add({ n: 99 })).rejects.toThrow();
        await redis.start();
        // The producer reconnects on its own; retry the add until it is accepted.
        await vi.waitUntil(
          async () => {
            try {
              await queue.add({ n: 2 });
              return true;
            } catch {
              return false;
            }
          },
          { ...POLL, timeout: 20_000, message: 'the producer to reconnect' },
        );
        await vi.waitUntil(() => done.includes(2), { ...POLL, timeout: 20_000, message: 'the worker to take a job after the restart' });
        expect(done).toEqual([1, 2]);
      } finally {
        await provider.close(0);
        await redis.kill();
      }
    });

    it('tells a watcher within seconds when Redis was flushed or restarted empty, and not when it only went away', async () => {
      const privately = await privateRedis();
      if (!('redis' in privately)) throw new Error(privately.skipReason);
      const { redis } = privately;
      const provider = new BullMqQueueProvider({ url: redis.url, prefix: 'loss', commandTimeoutMs: 500, lossCheckIntervalMs: 200 });
      try {
        const queue = provider.queue(definition());
        let lost = 0;
        queue.onLost(() => {
          lost += 1;
        });
        await queue.add({ n: 1 }, { jobId: 'job_l-0', delayMs: 60_000 });
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(lost).toBe(0);
        const admin = openRedis(redis.url);
        await admin.flushall();
        await closeRedis(admin);
        await vi.waitUntil(() => lost === 1, { ...POLL, message: 'the flush to be noticed' });
        await redis.kill();
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(lost).toBe(1);
        await redis.start();
        await vi.waitUntil(() => lost === 2, { ...POLL, timeout: 20_000, message: 'the empty restart to be noticed' });
      } finally {
        await provider.close(0);
        await redis.kill();
      }
    });

    it('close() does not hang and add() fails fast when Redis is unreachable', async () => {
      const port = await freePort();
      const provider = new BullMqQueueProvider({ url: `redis://127.0.0.1:${port}`, prefix: 'nowhere', commandTimeoutMs: 300 });
      const queue = provider.queue(definition());
      await queue.process(async () => undefined, { concurrency: 1 });
      const started = Date.now();
      await expect(queue.add({ n: 1 })).rejects.toThrow(/timed out|redis/i);
      await expect(provider.ping(300)).rejects.toThrow();
      await provider.close(1_000);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
} else {
  describe('BullMqQueue', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[bullmq adapter tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
