import { describe, expect, it } from 'vitest';
import { backoffDelay } from './work-queue.ts';

describe('backoffDelay', () => {
  const policy = { attempts: 5, backoffMs: 1000, maxBackoffMs: 8000 };
  it('doubles per attempt within jitter bounds and caps', () => {
    expect(backoffDelay(policy, 1, () => 0)).toBe(500);
    expect(backoffDelay(policy, 1, () => 1)).toBe(1000);
    expect(backoffDelay(policy, 3, () => 1)).toBe(4000);
    expect(backoffDelay(policy, 10, () => 1)).toBe(8000);
  });
});
