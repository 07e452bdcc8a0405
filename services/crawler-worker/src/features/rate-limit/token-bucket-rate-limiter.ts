import { systemClock, systemTimers, type Clock, type Timers } from '@crawl/clock';
import type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';

export interface TokenBucketOptions {
  requestsPerMinute: number;
  /** Bucket capacity: requests that may go out back to back after an idle spell. */
  burst?: number;
  /** The refill's clock and the waiters' timeouts (tests pass one ManualClock for both). */
  timers?: Clock & Timers;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * In-process token bucket: tokens refill continuously at `requestsPerMinute / 60_000` per ms up to
 * `burst`; waiters are served first come, first served, so no task starves.
 */
export class TokenBucketRateLimiter implements UpstreamRateLimiter {
  readonly #timers: Clock & Timers;
  readonly #burst: number;
  readonly #waiters: Waiter[] = [];
  #perMinute: number;
  #tokens: number;
  #updatedAt: number;
  #cancelTimer: (() => void) | undefined;
  #closed = false;

  constructor(options: TokenBucketOptions) {
    assertRate(options.requestsPerMinute);
    this.#timers = options.timers ?? { now: systemClock.now, setTimeout: systemTimers.setTimeout };
    this.#burst = Math.max(1, options.burst ?? 1);
    this.#perMinute = options.requestsPerMinute;
    this.#tokens = this.#burst;
    this.#updatedAt = this.#timers.now().getTime();
  }

  rate(): number {
    return this.#perMinute;
  }

  /** Milliseconds until the next waiter (or the next caller) would be granted a token. */
  nextGrantInMs(): number {
    this.#refill();
    return this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) * this.#msPerToken());
  }

  /** Callers waiting for a token. */
  waiting(): number {
    return this.#waiters.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('rate limiter closed'));
    signal?.throwIfAborted();
    this.#refill();
    if (this.#waiters.length === 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(signal.reason);
          this.#schedule();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
      this.#schedule();
    });
  }

  async setRate(requestsPerMinute: number): Promise<void> {
    assertRate(requestsPerMinute);
    // Tokens earned so far were earned at the old rate.
    this.#refill();
    this.#perMinute = requestsPerMinute;
    this.#schedule();
  }

  close(): void {
    this.#closed = true;
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    for (const waiter of this.#waiters.splice(0)) {
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new Error('rate limiter closed'));
    }
  }

  #msPerToken(): number {
    return 60_000 / this.#perMinute;
  }

  #refill(): void {
    const now = this.#timers.now().getTime();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsed / this.#msPerToken());
    this.#updatedAt = now;
  }

  #grant(): void {
    this.#refill();
    while (this.#waiters.length > 0 && this.#tokens >= 1) {
      const waiter = this.#waiters.shift() as Waiter;
      this.#tokens -= 1;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
  }

  /** One timer at most, set for the moment the first waiter can have its token. */
  #schedule(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    if (this.#closed) return;
    this.#grant();
    if (this.#waiters.length === 0) return;
    const delay = Math.max(1, Math.ceil((1 - this.#tokens) * this.#msPerToken()));
    this.#cancelTimer = this.#timers.setTimeout(() => {
      this.#cancelTimer = undefined;
      this.#schedule();
    }, delay);
  }
}

function assertRate(requestsPerMinute: number): void {
  if (!Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0) throw new RangeError(`requestsPerMinute must be positive (got ${requestsPerMinute})`);
}
