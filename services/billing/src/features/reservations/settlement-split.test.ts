import { describe, expect, it } from 'vitest';
import { creditsPerTarget, splitSettlement } from './settlement-split.ts';

describe('reservation pricing and settlement split', () => {
  it('charges 5 per keyword and 2 per ASIN, times the billable pages', () => {
    expect(creditsPerTarget('search')).toBe(5);
    expect(creditsPerTarget('details')).toBe(2);
    expect(creditsPerTarget('search', 3)).toBe(15);
  });

  it('captures successful targets and releases failed, blocked and cancelled ones', () => {
    const held = { credits: 50, creditsPerTarget: 5, targetCount: 10 };
    expect(splitSettlement(held, { succeededTargets: 6, failedTargets: 3, cancelledTargets: 1 })).toEqual({ captured: 30, released: 20 });
    expect(splitSettlement(held, { succeededTargets: 0, failedTargets: 10, cancelledTargets: 0 })).toEqual({ captured: 0, released: 50 });
    expect(splitSettlement(held, { succeededTargets: 10, failedTargets: 0, cancelledTargets: 0 })).toEqual({ captured: 50, released: 0 });
  });

  it('never captures more than was held, even when the counts overstate success', () => {
    expect(splitSettlement({ credits: 10, creditsPerTarget: 5, targetCount: 2 }, { succeededTargets: 7, failedTargets: 0, cancelledTargets: 0 })).toEqual({
      captured: 10,
      released: 0,
    });
  });
});
