/**
 * The one budget of marketplace requests for all crawl concurrency together. Every upstream
 * request (retries and redirects included) takes a token first. The in-process token bucket is
 * the adapter for one process; a Redis-backed adapter can share one budget between replicas.
 */
export interface UpstreamRateLimiter {
  /** Resolves when a request may go out; rejects with the signal's reason when aborted. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Changes the rate at once; waiting callers are rescheduled on the new rate. */
  setRate(requestsPerMinute: number): Promise<void>;
  /** The current rate in requests per minute. */
  rate(): number;
  /** Releases timers; pending acquires reject. */
  close(): void;
  /** Re-reads a rate shared between replicas (the Redis adapter); absent when there is none. */
  sync?(): Promise<void>;
}
