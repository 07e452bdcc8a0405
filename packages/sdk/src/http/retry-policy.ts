/** How the client retries answers that say "come back later" (429 and 503). */
export interface RetryOptions {
  /** Retries after the first try; 0 turns retrying off. Default 3. */
  retries?: number;
  /** First backoff when the answer has no `Retry-After`; doubles each retry, with full jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest backoff without `Retry-After`. Default 10 s. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export const DEFAULT_RETRY: ResolvedRetryOptions = { retries: 3, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

/**
 * 429 is answered before the request is handled, so any method may be sent again. A 503 can come
 * after the work was done (a dropped connection to a service), so a POST, which creates
 * something or spends credits, is not repeated after one; the other methods are idempotent here.
 */
export function isRetryable(method: string, status: number): boolean {
  if (status === 429) return true;
  return status === 503 && method !== 'POST';
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (1-based): what the server asked for, or exponential
 * backoff with full jitter so many clients throttled at once do not come back together.
 * Undefined means do not retry.
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, options: ResolvedRetryOptions, random = Math.random): number | undefined {
  if (attempt > options.retries) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= options.maxRetryAfterMs ? retryAfterMs : undefined;
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
