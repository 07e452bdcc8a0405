/**
 * `Retry-After` (RFC 9110 §10.2.3) as milliseconds from `now`: delta-seconds or an HTTP date.
 * Undefined when absent or unreadable; a date in the past is 0. Read by the crawler (upstream 429/503)
 * and by webhook deliveries (a receiver asking to be retried later).
 */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
