import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RetryLaterError, UnrecoverableError, type QueueDefinition, type QueueJob, type QueueProvider, type WorkQueue } from '../work-queue.ts';

interface Payload {
  n: number;
  org?: string;
}

const definition = (attempts = 3): QueueDefinition<Payload> => ({
  name: `contract-${randomUUID()}`,
  retry: { attempts, backoffMs: 5, maxBackoffMs: 20 },
  parse: (payload) => {
    const candidate = payload as Payload;
    if (typeof candidate?.n !== 'number') throw new Error('payload.n must be a number');
    return candidate;
  },
});

/** Resolves once `count` calls of `record` happened. */
function collector<T>(count: number) {
  const seen: T[] = [];
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return {
    seen,
    done,
    record(value: T) {
      seen.push(value);
      if (seen.length === count) resolve();
    },
  };
}

/** For adapters whose backend can lose its tasks apart from the process (Redis). */
export interface LossSimulation {
  /** Drops every task of the provider's queues, as a Redis restart without persistence would. */
  loseTasks(provider: QueueProvider): Promise<void>;
  /** Longest wait for the adapter to notice (a few of its check intervals). */
  noticeWithinMs: number;
}

export function describeWorkQueueContract(adapter: string, open: () => Promise<QueueProvider>, loss?: LossSimulation): void {
  describe(`WorkQueue contract: ${adapter}`, () => {
    const providers: QueueProvider[] = [];
    const provider = async () => {
      const created = await open();
      providers.push(created);
      return created;
    };

    afterEach(async () => {
      await Promise.all(providers.splice(0).map((p) => p.close()));
    });

    it('delivers each payload once with its id and first attempt', async () => {
      const queue: WorkQueue<Payload> = (await provider()).queue(definition());
      const got = collector<QueueJob<Payload>>(3);
      await queue.process(async (job) => got.record(job), { concurrency: 2 });
      const ids = await Promise.all([1, 2, 3].map((n) => queue.add({ n })));
      await got.done;
      expect(got.seen.map((job) => job.payload.n).sort()).toEqual([1, 2, 3]);
      expect(new Set(got.seen.map((job) => job.id))).toEqual(new Set(ids.map((i) => i.id)));
      expect(got.seen.every((job) => job.attempt === 1)).toBe(true);
    });

    it('rejects a payload that fails the definition', async () => {
      const queue = (await provider()).queue(definition());
      await expect(queue.add({ n: 'x' } as unknown as Payload)).rejects.toThrow(/payload.n/);
    });

    it('treats a repeated jobId as the same job', async () => {
      const queue = (await provider()).queue(definition());
      const first = await queue.add({ n: 1 }, { jobId: 'same-id', delayMs: 60_000 });
      const second = await queue.add({ n: 2 }, { jobId: 'same-id', delayMs: 60_000 });
      expect(second.id).toBe(first.id);
      const stats = await queue.stats();
      expect(stats.waiting + stats.delayed).toBe(1);
    });

    it('retries a failing job with a growing attempt number, then succeeds', async () => {
      const queue = (await provider()).queue(definition(3));
      const attempts = collector<number>(3);
      await queue.process(
        async (job) => {
          attempts.record(job.attempt);
          if (job.attempt < 3) throw new Error('transient');
        },
        { concurrency: 1 },
      );
      await queue.add({ n: 1 });
      await attempts.done;
      expect(attempts.seen).toEqual([1, 2, 3]);
    });

    it('gives up after the last attempt and reports the failure once', async () => {
      const queue = (await provider()).queue(definition(2));
      const failed = collector<string>(1);
      let calls = 0;
      await queue.process(
        async () => {
          calls += 1;
          throw new Error('always');
        },
        { concurrency: 1, onFailed: (_job, error) => failed.record(error.message) },
      );
      await queue.add({ n: 1 });
      await failed.done;
      expect(calls).toBe(2);
      expect(failed.seen).toEqual(['always']);
    });

    it('does not retry an unrecoverable error', async () => {
      const queue = (await provider()).queue(definition(5));
      const failed = collector<string>(1);
      let calls = 0;
      await queue.process(
        async () => {
          calls += 1;
          throw new UnrecoverableError('bad target');
        },
        { concurrency: 1, onFailed: (_job, error) => failed.record(error.message) },
      );
      await queue.add({ n: 1 });
      await failed.done;
      expect(calls).toBe(1);
    });

    it('retries later without spending an attempt when asked to wait', async () => {
      const queue = (await provider()).queue(definition(1));
      const done = collector<number>(1);
      let calls = 0;
      await queue.process(
        async (job) => {
          calls += 1;
          if (calls === 1) throw new RetryLaterError('upstream said wait', 10);
          done.record(job.attempt);
        },
        { concurrency: 1 },
      );
      await queue.add({ n: 1 });
      await done.done;
      expect(calls).toBe(2);
    });

    it("tells each task the attempts it was added with, and stops after them whatever the consumer's default", async () => {
      const queue = (await provider()).queue(definition(5));
      const fewer = collector<string>(1);
      const seen: Array<{ n: number; attempt: number; maxAttempts: number }> = [];
      await queue.process(
        async (job) => {
          seen.push({ n: job.payload.n, attempt: job.attempt, maxAttempts: job.maxAttempts });
          throw new Error(`always ${job.payload.n}`);
        },
        { concurrency: 1, onFailed: (job, error) => fewer.record(`${job.payload.n}:${job.attempt}/${job.maxAttempts}:${error.message}`) },
      );
      await queue.add({ n: 2 }, { attempts: 2 });
      await fewer.done;
      expect(fewer.seen).toEqual(['2:2/2:always 2']);
      expect(seen).toEqual([
        { n: 2, attempt: 1, maxAttempts: 2 },
        { n: 2, attempt: 2, maxAttempts: 2 },
      ]);
    });

    it("retries a task added with more attempts than the consumer's default as often as it says", async () => {
      const queue = (await provider()).queue(definition(1));
      const done = collector<string>(1);
      await queue.process(
        async (job) => {
          if (job.attempt < 3) throw new Error('transient');
          done.record(`${job.attempt}/${job.maxAttempts}`);
        },
        { concurrency: 1 },
      );
      await queue.add({ n: 1 }, { attempts: 3 });
      await done.done;
      expect(done.seen).toEqual(['3/3']);
      const plain = collector<number>(1);
      const other = (await provider()).queue(definition(4));
      await other.process(async (job) => plain.record(job.maxAttempts), { concurrency: 1 });
      await other.add({ n: 1 });
      await plain.done;
      expect(plain.seen).toEqual([4]);
    });

    if (loss) {
      it('reports a lost backend to its watchers once, and never while nothing was lost', async () => {
        const opened = await provider();
        const queue = opened.queue(definition());
        let lost = 0;
        const stop = queue.onLost(() => {
          lost += 1;
        });
        await queue.add({ n: 1 }, { jobId: 'kept', delayMs: 60_000 });
        await new Promise((resolve) => setTimeout(resolve, loss.noticeWithinMs));
        expect(lost).toBe(0);
        await loss.loseTasks(opened);
        await vi.waitUntil(() => lost > 0, { timeout: loss.noticeWithinMs * 2, interval: 10 });
        const after = await queue.stats();
        expect(after.waiting + after.delayed).toBe(0);
        await queue.add({ n: 1 }, { jobId: 'kept', delayMs: 60_000 });
        const readded = await queue.stats();
        expect(readded.delayed).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, loss.noticeWithinMs));
        expect(lost).toBe(1);
        stop();
      });
    }

    it('serves a small group between the jobs of a large backlog', async () => {
      const queue = (await provider()).queue(definition());
      for (let n = 0; n < 40; n += 1) await queue.add({ n, org: 'big' }, { group: 'big' });
      for (let n = 0; n < 3; n += 1) await queue.add({ n, org: 'small' }, { group: 'small' });
      const order = collector<string>(43);
      await queue.process(async (job) => order.record(job.payload.org ?? ''), { concurrency: 1 });
      await order.done;
      const lastSmall = order.seen.lastIndexOf('small');
      // Round-robin: the three small jobs finish within the first handful, not after the 40.
      expect(lastSmall).toBeLessThan(10);
    });

    it('stays fair when the backlog is added concurrently into an empty queue', async () => {
      const queue = (await provider()).queue(definition());
      await Promise.all(Array.from({ length: 40 }, (_, n) => queue.add({ n, org: 'big' }, { jobId: `big-${n}`, group: 'big' })));
      await Promise.all([0, 1, 2].map((n) => queue.add({ n, org: 'small' }, { jobId: `small-${n}`, group: 'small' })));
      const order = collector<string>(43);
      await queue.process(async (job) => order.record(job.payload.org ?? ''), { concurrency: 1 });
      await order.done;
      expect(order.seen.lastIndexOf('small')).toBeLessThan(10);
    });

    it("tells each waiting task's place in the fair dispatch order, exactly as the tasks then go out", async () => {
      const queue = (await provider()).queue(definition());
      // Two groups with backlogs of different sizes, the small one arriving after the large one.
      for (let n = 0; n < 6; n += 1) await queue.add({ n, org: 'a' }, { jobId: `a-${n}`, group: 'a' });
      for (let n = 0; n < 2; n += 1) await queue.add({ n, org: 'b' }, { jobId: `b-${n}`, group: 'b' });
      const ids = [...Array.from({ length: 6 }, (_, n) => `a-${n}`), 'b-0', 'b-1'];
      const positions = new Map<string, number | undefined>();
      for (const id of ids) positions.set(id, await queue.position(id));
      expect(await queue.position('never-added')).toBeUndefined();
      const order = collector<string>(ids.length);
      await queue.process(async (job) => order.record(job.id), { concurrency: 1 });
      await order.done;
      // Round-robin: a-0, b-0, a-1, b-1, a-2 … and each position is the index it went out at.
      expect(order.seen).toEqual(['a-0', 'b-0', 'a-1', 'b-1', 'a-2', 'a-3', 'a-4', 'a-5']);
      expect(Object.fromEntries(positions)).toEqual(Object.fromEntries(order.seen.map((id, index) => [id, index])));
      await vi.waitFor(async () => expect(await queue.position('a-5')).toBeUndefined());
    });

    it('tells the age of the oldest waiting task, leaving out delayed and active ones', async () => {
      const queue = (await provider()).queue(definition());
      expect(await queue.oldestWaitingAgeMs()).toBeUndefined();
      await queue.add({ n: 0 }, { jobId: 'later', delayMs: 60_000 });
      expect(await queue.oldestWaitingAgeMs()).toBeUndefined();
      const beforeFirst = Date.now();
      await queue.add({ n: 1, org: 'a' }, { jobId: 'first', group: 'a' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const beforeSecond = Date.now();
      await queue.add({ n: 2, org: 'b' }, { jobId: 'second', group: 'b' });
      const both = await queue.oldestWaitingAgeMs();
      // The first task's age: at least the pause between the two adds, at most since before it.
      expect(both).toBeGreaterThanOrEqual(190);
      expect(both).toBeLessThanOrEqual(Date.now() - beforeFirst);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const started: string[] = [];
      await queue.process(
        async (job) => {
          started.push(job.id);
          await held;
        },
        { concurrency: 1 },
      );
      await vi.waitFor(() => expect(started).toEqual(['first']), { timeout: 5_000 });
      // The first task is active now: the age is the second's, younger than the first's by the pause.
      const second = await queue.oldestWaitingAgeMs();
      expect(second).toBeGreaterThanOrEqual(0);
      expect(second).toBeLessThanOrEqual(Date.now() - beforeSecond);
      release();
      await vi.waitFor(() => expect(started).toEqual(['first', 'second']), { timeout: 5_000 });
      expect(await queue.oldestWaitingAgeMs()).toBeUndefined();
    });

    it('broadcasts a message to every subscriber of the topic, and none after it unsubscribed', async () => {
      const opened = await provider();
      const topic = `topic-${randomUUID()}`;
      const first = collector<string>(2);
      const second = collector<string>(1);
      const stopFirst = opened.broadcast(topic).subscribe((message) => first.record(message));
      const stopSecond = opened.broadcast(topic).subscribe((message) => second.record(message));
      const other = collector<string>(1);
      const stopOther = opened.broadcast(`${topic}-other`).subscribe((message) => other.record(message));
      // A subscription takes effect once the backend confirmed it: publish until it arrives.
      await vi.waitFor(
        async () => {
          await opened.broadcast(topic).publish('hello');
          expect(second.seen.length).toBeGreaterThan(0);
        },
        { timeout: 5_000, interval: 50 },
      );
      stopSecond();
      const before = second.seen.length;
      await opened.broadcast(topic).publish('again');
      await vi.waitFor(() => expect(first.seen).toContain('again'), { timeout: 5_000 });
      expect(second.seen.length).toBe(before);
      expect(other.seen).toEqual([]);
      stopFirst();
      stopOther();
    });
  });
}
