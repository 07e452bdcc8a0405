import { ManualClock } from '@crawl/clock';
import { RedisRateBudget } from '@crawl/redis';
import { redisTestConnections, redisTestServer } from '@crawl/redis/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PerIdentityRateLimiter } from './per-identity-rate-limiter.ts';
import { SharedRateLimiter } from './shared-rate-limiter.ts';
import { TokenBucketRateLimiter } from './token-bucket-rate-limiter.ts';

/** Reservations in Redis travel there and back: conditions are polled often. */
const POLL = { timeout: 10_000, interval: 5 };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

type Replica = { limiter: PerIdentityRateLimiter; waiting: () => number };
type MakeReplicas = (options: { perMinute: number; burst: number; timers: ManualClock }) => () => Replica;

/** Starts acquires (identity per call) and records, per identity, the times they are granted. */
async function drive(timers: ManualClock, calls: Array<{ replica: Replica; identity: string }>, untilMs: number) {
  const start = timers.now().getTime();
  const granted: Array<{ identity: string; at: number }> = [];
  for (const { replica, identity } of calls)
    void replica.limiter.acquire(undefined, identity).then(() => granted.push({ identity, at: timers.now().getTime() - start }));
  const replicas = [...new Set(calls.map((c) => c.replica))];
  await vi.waitUntil(() => granted.length + replicas.reduce((n, r) => n + r.waiting(), 0) === calls.length, { ...POLL, message: 'every call holds a slot' });
  while (timers.now().getTime() - start < untilMs) {
    timers.advance(100);
    await flush();
  }
  await flush();
  return granted;
}

/** The per-identity budget contract, for the in-process and the Redis adapter alike. */
function perIdentityContract(name: string, makeReplicas: MakeReplicas) {
  describe(`PerIdentityRateLimiter (${name})`, () => {
    it('gives each egress identity its own budget: capacity is rate × identities', async () => {
      const timers = new ManualClock();
      timers.advance(1_000_000);
      const replica = makeReplicas({ perMinute: 60, burst: 1, timers })();
      const calls = ['p1', 'p2', 'p1', 'p2', 'p1', 'p2'].map((identity) => ({ replica, identity }));
      const granted = await drive(timers, calls, 2_000);
      // 60/min each: at 0, 1 s and 2 s for both identities — six grants in two seconds, not three.
      expect(granted.filter((g) => g.identity === 'p1').map((g) => g.at)).toEqual([0, 1000, 2000]);
      expect(granted.filter((g) => g.identity === 'p2').map((g) => g.at)).toEqual([0, 1000, 2000]);
      expect(replica.limiter.rate()).toBe(60);
    });

    it('applies a rate change to every identity, including ones not seen yet', async () => {
      const timers = new ManualClock();
      timers.advance(1_000_000);
      const replica = makeReplicas({ perMinute: 60, burst: 1, timers })();
      await replica.limiter.acquire(undefined, 'p1');
      await replica.limiter.setRate(600);
      expect(replica.limiter.rate()).toBe(600);
      timers.advance(1_000);
      const granted = await drive(
        timers,
        ['p1', 'p1', 'p2', 'p2'].map((identity) => ({ replica, identity })),
        100,
      );
      expect(granted.filter((g) => g.identity === 'p1').map((g) => g.at)).toEqual([0, 100]);
      expect(granted.filter((g) => g.identity === 'p2').map((g) => g.at)).toEqual([0, 100]);
    });

    it('rejects a non-positive rate and every acquire after close', async () => {
      const timers = new ManualClock();
      const replica = makeReplicas({ perMinute: 60, burst: 1, timers })();
      await expect(replica.limiter.setRate(0)).rejects.toThrow(RangeError);
      replica.limiter.close();
      await expect(replica.limiter.acquire(undefined, 'p1')).rejects.toThrow('closed');
    });
  });
}

perIdentityContract('in-process token buckets', ({ perMinute, burst, timers }) => () => {
  const buckets: TokenBucketRateLimiter[] = [];
  const limiter = new PerIdentityRateLimiter({
    requestsPerMinute: perMinute,
    create: (_identity, rate) => {
      const bucket = new TokenBucketRateLimiter({ requestsPerMinute: rate, burst, timers });
      buckets.push(bucket);
      return bucket;
    },
  });
  return { limiter, waiting: () => buckets.reduce((n, b) => n + b.waiting(), 0) };
});

const found = await redisTestServer();

if ('server' in found) {
  const { server } = found;
  const redisConnections = redisTestConnections(server.url);
  afterAll(async () => {
    await redisConnections.close();
    await server.stop();
  });

  /** Replicas of one budget key: each has its own connection and limiters, all share Redis. */
  const redisReplicas: MakeReplicas = ({ perMinute, burst, timers }) => {
    const key = redisConnections.key();
    return () => {
      const redis = redisConnections.open();
      const shared: SharedRateLimiter[] = [];
      const limiter = new PerIdentityRateLimiter({
        requestsPerMinute: perMinute,
        create: (identity, rate) => {
          const budget = new RedisRateBudget({ redis, key, identity, defaultPerMinute: perMinute, burst, now: () => timers.now().getTime() });
          const one = new SharedRateLimiter({ budget, requestsPerMinute: rate, timers });
          shared.push(one);
          return one;
        },
      });
      return { limiter, waiting: () => shared.reduce((n, s) => n + s.waiting(), 0) };
    };
  };

  perIdentityContract('Redis, shared between replicas', redisReplicas);

  describe('PerIdentityRateLimiter on Redis: two replicas', () => {
    it('get together at most rate × identities, however the calls are spread', async () => {
      const timers = new ManualClock();
      timers.advance(1_000_000);
      const replica = redisReplicas({ perMinute: 60, burst: 2, timers });
      const a = replica();
      const b = replica();
      const calls = Array.from({ length: 24 }, (_, i) => ({ replica: i % 3 === 0 ? b : a, identity: i % 2 === 0 ? 'p1' : 'p2' }));
      const granted = await drive(timers, calls, 5_000);
      for (const identity of ['p1', 'p2']) {
        const times = granted.filter((g) => g.identity === identity).map((g) => g.at);
        // GCRA(60/min, burst 2) per identity, whichever replica asked: 2 at once, then one a second.
        expect(times).toEqual([0, 0, 1000, 2000, 3000, 4000, 5000]);
      }
      // 2 identities × (burst 2 + 5 s at 1/s) = 14 in 5 s; one shared budget would have allowed 7.
      expect(granted).toHaveLength(14);
    });

    it('reads a rate set through one replica in the other at its next sync', async () => {
      const timers = new ManualClock();
      const replica = redisReplicas({ perMinute: 60, burst: 1, timers });
      const a = replica();
      const b = replica();
      await a.limiter.acquire(undefined, 'p1');
      await a.limiter.setRate(300);
      expect(b.limiter.rate()).toBe(60);
      await b.limiter.sync();
      expect(b.limiter.rate()).toBe(300);
    });
  });
} else {
  describe('PerIdentityRateLimiter on Redis', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[redis per-identity rate limiter tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
