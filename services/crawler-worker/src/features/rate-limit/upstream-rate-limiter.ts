/**
 * The budget of marketplace requests. Every upstream request (retries and redirects included)
 * takes a token first. The in-process token bucket is one budget for one process, the Redis-backed
 * `SharedRateLimiter` one budget shared between replicas; `PerIdentityRateLimiter` keeps one of
 * either per egress identity (direct connection or proxy), so capacity grows with the proxies.
 */
export interface UpstreamRateLimiter {
  /**
   * Resolves when a request may go out; rejects with the signal's reason when aborted.
   * `identity`: the egress identity the request leaves from (ignored by a single budget).
   */
  acquire(signal?: AbortSignal, identity?: string): Promise<void>;
  /** Changes the rate at once; waiting callers are rescheduled on the new rate. */
  setRate(requestsPerMinute: number): Promise<void>;
  /** The current rate in requests per minute. */
  rate(): number;
  /** Releases timers; pending acquires reject. */
  close(): void;
  /** Re-reads a rate shared between replicas (the Redis adapter); absent when there is none. */
  sync?(): Promise<void>;
}
