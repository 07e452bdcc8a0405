/**
 * When a failed delivery is tried again. Attempt 1 is immediate; after a failed attempt n the
 * next one waits RETRY_DELAYS_MS[n-1] × jitter (0.8–1.2), unless the receiver sent Retry-After.
 * Eight attempts span about 21 hours.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  30_000, // 30 s
  2 * 60_000, // 2 min
  10 * 60_000, // 10 min
  30 * 60_000, // 30 min
  2 * 3_600_000, // 2 h
  6 * 3_600_000, // 6 h
  12 * 3_600_000, // 12 h
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.2;
/** A Retry-After is honoured up to this long (and at least one second). */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Delay before the attempt after `attempt` (1-based), or null when no attempts are left.
 * `retryAfterMs` (from the response) replaces the schedule's delay.
 */
export function nextRetryDelay(attempt: number, options: { retryAfterMs?: number | null; random?: () => number } = {}): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  if (options.retryAfterMs !== undefined && options.retryAfterMs !== null) return Math.min(MAX_RETRY_AFTER_MS, Math.max(1_000, options.retryAfterMs));
  const base = RETRY_DELAYS_MS[attempt - 1] ?? (RETRY_DELAYS_MS.at(-1) as number);
  const random = options.random ?? Math.random;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
