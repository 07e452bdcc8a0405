import { redisTestConnections, redisTestServer } from '@crawl/redis/testing';
import { ManualClock } from '@crawl/clock';
import { RedisRateBudget } from '@crawl/redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SharedRateLimiter } from './shared-rate-limiter.ts';

const found = await redisTestServer();

/** Reservations travel to Redis and back: conditions are polled often. */
const POLL = { timeout: 10_000, interval: 5 };

/** Lets promise callbacks run (resolutions are microtasks). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

if ('server' in found) {
  const { server } = found;
  const redisConnections = redisTestConnections(server.url);
  afterAll(async () => {
    await redisConnections.close();
    await server.stop();
  });

  /** Two "replicas": their own connection and limiter, one budget key, one hand-driven clock. */
  function replicas(options: { perMinute: number; burst: number }) {
    const key = redisConnections.key();
    const timers = new ManualClock();
    timers.advance(1_000_000);
    const make = () => {
      const redis = redisConnections.open();
      const budget = new RedisRateBudget({ redis, key, defaultPerMinute: options.perMinute, burst: options.burst, now: () => timers.now().getTime() });
      return new SharedRateLimiter({ budget, requestsPerMinute: options.perMinute, timers });
    };
    return { timers, a: make(), b: make() };
  }

  describe('SharedRateLimiter on Redis (two replicas)', () => {
    it('never lets the replicas together exceed the rate: one schedule for both', async () => {
      const { timers, a, b } = replicas({ perMinute: 60, burst: 2 });
      const granted: Array<{ at: number; by: string }> = [];
      const start = timers.now().getTime();
      for (let i = 0; i < 10; i += 1) {
        const [limiter, by] = i % 2 === 0 ? [a, 'a'] : [b, 'b'];
        void limiter.acquire().then(() => granted.push({ at: timers.now().getTime() - start, by }));
      }
      // Every caller holds its reservation (granted at once, or asleep until its slot).
      await vi.waitUntil(() => granted.length + a.waiting() + b.waiting() === 10, { ...POLL, message: 'ten reservations' });
      for (let step = 0; step < 120 && granted.length < 10; step += 1) {
        timers.advance(100);
        await flush();
      }
      expect(granted).toHaveLength(10);
      const times = granted.map((g) => g.at).sort((x, y) => x - y);
      // GCRA(60/min, burst 2): any k+1 consecutive grants span at least (k + 1 - burst) seconds.
      for (let i = 0; i < times.length; i += 1) {
        for (let j = i + 2; j < times.length; j += 1) expect(times[j]! - times[i]!).toBeGreaterThanOrEqual((j - i + 1 - 2) * 1000);
      }
      expect(times.slice(0, 2)).toEqual([0, 0]);
      expect(times.at(-1)).toBe(8000);
      expect(new Set(granted.map((g) => g.by))).toEqual(new Set(['a', 'b']));
    });

    it('applies a rate set through one replica to the other at its next request', async () => {
      const { timers, a, b } = replicas({ perMinute: 60, burst: 1 });
      await a.acquire();
      await a.setRate(600);
      expect(a.rate()).toBe(600);
      expect(b.rate()).toBe(60);
      await b.sync();
      expect(b.rate()).toBe(600);
      // b's first request waits for the slot after a's (reserved at 60/min) and reads 600/min too.
      let done = false;
      void b.acquire().then(() => (done = true));
      await vi.waitUntil(() => b.waiting() === 1, { ...POLL, message: 'b to hold a reservation' });
      expect(b.rate()).toBe(600);
      timers.advance(1000);
      await vi.waitUntil(() => done, { ...POLL, message: 'b to be granted' });
      // At 600/min the next slot is 100 ms later.
      let next = false;
      void a.acquire().then(() => (next = true));
      await vi.waitUntil(() => a.waiting() === 1, { ...POLL, message: 'a to hold a reservation' });
      timers.advance(99);
      await flush();
      expect(next).toBe(false);
      timers.advance(1);
      await vi.waitUntil(() => next, { ...POLL, message: 'a to be granted at the new rate' });
    });

    it('rejects a sleeping caller on abort and on close', async () => {
      const { a } = replicas({ perMinute: 60, burst: 1 });
      await a.acquire();
      const controller = new AbortController();
      const aborted = a.acquire(controller.signal);
      await vi.waitUntil(() => a.waiting() === 1, { ...POLL, message: 'a sleeper' });
      controller.abort(new Error('stop'));
      await expect(aborted).rejects.toThrow('stop');
      const pending = a.acquire();
      await vi.waitUntil(() => a.waiting() === 1, { ...POLL, message: 'a sleeper' });
      a.close();
      await expect(pending).rejects.toThrow('closed');
      await expect(a.acquire()).rejects.toThrow('closed');
    });
  });
} else {
  describe('SharedRateLimiter on Redis', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[redis rate limiter tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
