import { DIRECT_IDENTITY } from '../egress/index.ts';
import type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';

export interface PerIdentityRateLimiterOptions {
  /** The budget of one identity at `requestsPerMinute` (a token bucket, or a shared one in Redis). */
  create: (identity: string, requestsPerMinute: number) => UpstreamRateLimiter;
  requestsPerMinute: number;
}

/**
 * The upstream rate as a budget per egress identity: each proxy (or the direct connection) may
 * send `rate` requests per minute, so the crawler's capacity is rate × identities. The rate is one
 * setting applied to every identity. A cooled-down proxy takes no new sessions, so its budget
 * simply goes unused while the others take its work.
 */
export class PerIdentityRateLimiter implements UpstreamRateLimiter {
  readonly #create: PerIdentityRateLimiterOptions['create'];
  readonly #limiters = new Map<string, UpstreamRateLimiter>();
  #perMinute: number;
  #closed = false;

  constructor(options: PerIdentityRateLimiterOptions) {
    if (!Number.isFinite(options.requestsPerMinute) || options.requestsPerMinute <= 0)
      throw new RangeError(`requestsPerMinute must be positive (got ${options.requestsPerMinute})`);
    this.#create = options.create;
    this.#perMinute = options.requestsPerMinute;
  }

  /** The rate of each identity. */
  rate(): number {
    return this.#perMinute;
  }

  acquire(signal?: AbortSignal, identity: string = DIRECT_IDENTITY.id): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('rate limiter closed'));
    return this.#limiter(identity).acquire(signal);
  }

  async setRate(requestsPerMinute: number): Promise<void> {
    if (!Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0) throw new RangeError(`requestsPerMinute must be positive (got ${requestsPerMinute})`);
    await Promise.all([...this.#limiters.values()].map((limiter) => limiter.setRate(requestsPerMinute)));
    this.#perMinute = requestsPerMinute;
  }

  /** Re-reads a shared rate: one setting for every identity, so any identity's budget answers. */
  async sync(): Promise<void> {
    const limiter = this.#limiters.values().next().value ?? this.#limiter(DIRECT_IDENTITY.id);
    await limiter.sync?.();
    this.#perMinute = limiter.rate();
  }

  close(): void {
    this.#closed = true;
    for (const limiter of this.#limiters.values()) limiter.close();
  }

  #limiter(identity: string): UpstreamRateLimiter {
    let limiter = this.#limiters.get(identity);
    if (!limiter) {
      limiter = this.#create(identity, this.#perMinute);
      this.#limiters.set(identity, limiter);
    }
    return limiter;
  }
}
