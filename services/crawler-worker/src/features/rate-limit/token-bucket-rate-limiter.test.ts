import { ManualClock } from '@crawl/clock';
import { describe, expect, it } from 'vitest';
import { TokenBucketRateLimiter } from './token-bucket-rate-limiter.ts';

/** Lets promise callbacks run (resolutions are microtasks). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts `count` acquires and records the order in which they are granted. */
function tracked(limiter: TokenBucketRateLimiter, count: number): { granted: number[] } {
  const granted: number[] = [];
  for (let i = 0; i < count; i += 1) void limiter.acquire().then(() => granted.push(i));
  return { granted };
}

describe('TokenBucketRateLimiter', () => {
  it('grants the burst at once, then one token per 60000/rate ms, first come first served', async () => {
    const timers = new ManualClock();
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 2, timers });
    const { granted } = tracked(limiter, 5);
    await flush();
    expect(granted).toEqual([0, 1]);
    expect(timers.nextTimerInMs()).toBe(1000);
    timers.advance(999);
    await flush();
    expect(granted).toEqual([0, 1]);
    timers.advance(1);
    await flush();
    expect(granted).toEqual([0, 1, 2]);
    timers.advance(2000);
    await flush();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.waiting()).toBe(0);
    expect(timers.nextTimerInMs()).toBeUndefined();
  });

  it('reschedules waiters at once when the rate is lowered or raised', async () => {
    const timers = new ManualClock();
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, timers });
    const { granted } = tracked(limiter, 3);
    await flush();
    expect(granted).toEqual([0]);
    expect(timers.nextTimerInMs()).toBe(1000);

    timers.advance(500); // half a token earned at 60/min
    await limiter.setRate(6); // 10 s per token: the remaining half takes 5 s
    expect(limiter.rate()).toBe(6);
    expect(timers.nextTimerInMs()).toBe(5000);
    expect(limiter.nextGrantInMs()).toBe(5000);
    timers.advance(4999);
    await flush();
    expect(granted).toEqual([0]);
    timers.advance(1);
    await flush();
    expect(granted).toEqual([0, 1]);
    expect(timers.nextTimerInMs()).toBe(10_000);

    await limiter.setRate(600); // 100 ms per token
    expect(timers.nextTimerInMs()).toBe(100);
    timers.advance(100);
    await flush();
    expect(granted).toEqual([0, 1, 2]);
  });

  it('refills up to the burst only, however long it was idle', async () => {
    const timers = new ManualClock();
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 3, timers });
    timers.advance(3_600_000);
    const { granted } = tracked(limiter, 5);
    await flush();
    expect(granted).toEqual([0, 1, 2]);
    expect(limiter.nextGrantInMs()).toBe(1000);
  });

  it('drops an aborted waiter without spending a token, and rejects waiters on close', async () => {
    const timers = new ManualClock();
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, timers });
    await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    timers.advance(1000);
    await expect(next).resolves.toBeUndefined();
    const pending = limiter.acquire();
    limiter.close();
    await expect(pending).rejects.toThrow('closed');
  });

  it('rejects a non-positive rate', async () => {
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, timers: new ManualClock() });
    await expect(limiter.setRate(0)).rejects.toThrow(RangeError);
    expect(() => new TokenBucketRateLimiter({ requestsPerMinute: -1 })).toThrow(RangeError);
  });
});
