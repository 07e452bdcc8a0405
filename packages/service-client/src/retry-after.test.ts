import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP dates, a past date as 0', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 120 ', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });

  it('takes the first of repeated headers', () => {
    expect(retryAfterMs(['3', '9'], now)).toBe(3000);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
