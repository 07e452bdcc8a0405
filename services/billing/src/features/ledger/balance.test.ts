import { describe, expect, it } from 'vitest';
import { applyDelta, deltaFor, invariantProblems, refusal, ZERO_BALANCE } from './balance.ts';

describe('ledger balance rules', () => {
  it('keeps available + reserved + spent = granted through every kind of entry', () => {
    let balance = { ...ZERO_BALANCE };
    const steps = [
      deltaFor('signup_bonus', 1000),
      deltaFor('reservation', 50),
      deltaFor('capture', 30),
      deltaFor('release', 20),
      deltaFor('purchase', 100_000),
      deltaFor('admin_revoke', 500),
      deltaFor('referral_reward', 500),
      deltaFor('admin_grant', 7),
    ];
    for (const delta of steps) {
      expect(refusal(balance, delta)).toBeNull();
      balance = applyDelta(balance, delta);
      expect(invariantProblems(balance)).toEqual([]);
    }
    expect(balance).toEqual({ available: 100_977, reserved: 0, spent: 30, granted: 101_007 });
  });

  it('moves credits in the direction each kind says', () => {
    expect(deltaFor('reservation', 10)).toEqual({ available: -10, reserved: 10, spent: 0, granted: 0 });
    expect(deltaFor('capture', 10)).toEqual({ available: 0, reserved: -10, spent: 10, granted: 0 });
    expect(deltaFor('release', 10)).toEqual({ available: 10, reserved: -10, spent: 0, granted: 0 });
    expect(deltaFor('admin_revoke', 10)).toEqual({ available: -10, reserved: 0, spent: 0, granted: -10 });
  });

  it('refuses entries that would take a figure below zero', () => {
    const balance = { available: 9, reserved: 4, spent: 0, granted: 13 };
    expect(refusal(balance, deltaFor('reservation', 10))).toBe('insufficient_available');
    expect(refusal(balance, deltaFor('reservation', 9))).toBeNull();
    expect(refusal(balance, deltaFor('capture', 5))).toBe('insufficient_reserved');
    expect(refusal(balance, deltaFor('admin_revoke', 10))).toBe('insufficient_available');
  });

  it('rejects zero, negative and fractional amounts', () => {
    expect(() => deltaFor('purchase', 0)).toThrow(RangeError);
    expect(() => deltaFor('purchase', -5)).toThrow(RangeError);
    expect(() => deltaFor('purchase', 1.5)).toThrow(RangeError);
  });

  it('reports a broken invariant and negative figures', () => {
    expect(invariantProblems({ available: 5, reserved: 0, spent: 0, granted: 6 })).toHaveLength(1);
    expect(invariantProblems({ available: -1, reserved: 1, spent: 0, granted: 0 })).toEqual(['available is -1']);
  });
});
