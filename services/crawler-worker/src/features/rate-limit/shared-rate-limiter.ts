import { systemTimers, type Timers } from '@crawl/clock';
import type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';

/** A request budget shared by every worker process (the Redis adapter is `RedisRateBudget`). */
export interface SharedRateBudget {
  /** Reserves the next free slot; `waitMs` until it, and the rate in force everywhere. */
  reserve(): Promise<{ waitMs: number; perMinute: number }>;
  /** Stores the rate for every process at once. */
  setRate(perMinute: number): Promise<void>;
  /** The rate in force (the stored one, or the default). */
  rate(): Promise<number>;
}

export interface SharedRateLimiterOptions {
  budget: SharedRateBudget;
  /** The rate assumed until the first reservation reads the shared one. */
  requestsPerMinute: number;
  timers?: Timers;
}

interface Sleeper {
  reject: (reason: unknown) => void;
  cancel: () => void;
}

/**
 * The upstream rate limit across all worker replicas: each request reserves a slot in the shared
 * budget (GCRA in Redis, one schedule for everyone) and sleeps until it. The rate in force lives
 * in the budget (each replica applies billing's admin-set rate to it on refresh), so a change
 * applies to the next reservation everywhere.
 * A caller aborted while sleeping gives up its slot (the budget errs on the slow side). Slots
 * reserved before a rate change keep their time; later ones use the new rate.
 */
export class SharedRateLimiter implements UpstreamRateLimiter {
  readonly #budget: SharedRateBudget;
  readonly #timers: Timers;
  readonly #sleepers = new Set<Sleeper>();
  #perMinute: number;
  #closed = false;

  constructor(options: SharedRateLimiterOptions) {
    assertRate(options.requestsPerMinute);
    this.#budget = options.budget;
    this.#timers = options.timers ?? systemTimers;
    this.#perMinute = options.requestsPerMinute;
  }

  rate(): number {
    return this.#perMinute;
  }

  /** Callers holding a reservation and sleeping until it. */
  waiting(): number {
    return this.#sleepers.size;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closed) throw new Error('rate limiter closed');
    signal?.throwIfAborted();
    const { waitMs, perMinute } = await this.#budget.reserve();
    this.#perMinute = perMinute;
    if (waitMs <= 0) return;
    if (this.#closed) throw new Error('rate limiter closed');
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        sleeper.cancel();
        reject(signal?.reason);
      };
      const cancelTimer = this.#timers.setTimeout(() => {
        sleeper.cancel();
        resolve();
      }, waitMs);
      const sleeper: Sleeper = {
        reject,
        cancel: () => {
          cancelTimer();
          signal?.removeEventListener('abort', onAbort);
          this.#sleepers.delete(sleeper);
        },
      };
      this.#sleepers.add(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Reads the shared rate now (before any request went out). */
  async sync(): Promise<void> {
    this.#perMinute = await this.#budget.rate();
  }

  async setRate(requestsPerMinute: number): Promise<void> {
    assertRate(requestsPerMinute);
    await this.#budget.setRate(requestsPerMinute);
    this.#perMinute = requestsPerMinute;
  }

  close(): void {
    this.#closed = true;
    for (const sleeper of [...this.#sleepers]) {
      sleeper.cancel();
      sleeper.reject(new Error('rate limiter closed'));
    }
  }
}

function assertRate(requestsPerMinute: number): void {
  if (!Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0) throw new RangeError(`requestsPerMinute must be positive (got ${requestsPerMinute})`);
}
