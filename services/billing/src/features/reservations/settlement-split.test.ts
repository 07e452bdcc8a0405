import { describe, expect, it } from 'vitest';
import { creditsPerTarget, splitSettlement } from './settlement-split.ts';

describe('reservation pricing and settlement split', () => {
  it('charges 5 per keyword and 2 per ASIN, times the billable pages', () => {
    expect(creditsPerTarget('search')).toBe(5);
    expect(creditsPerTarget('details')).toBe(2);
    expect(creditsPerTarget('search', 3)).toBe(15);
  });

  it('captures units answered from the page cache at the cached price, never above the full one nor more than the charged units', () => {
    const held = { credits: 20, creditsPerTarget: 2, targetCount: 10 };
    const counts = { succeededTargets: 8, failedTargets: 2, cancelledTargets: 0 };
    expect(splitSettlement(held, { ...counts, cachedUnits: 5 }, 1)).toEqual({
      captured: 11,
      released: 9,
      chargedTargets: 8,
      unchargedTargets: 0,
      cachedUnits: 5,
    });
    // More cached units than charged ones: all charged units at the cached price.
    expect(splitSettlement(held, { ...counts, cachedUnits: 50 }, 1)).toMatchObject({ captured: 8, cachedUnits: 8 });
    // A cached price above the full one is the full one.
    expect(splitSettlement(held, { ...counts, cachedUnits: 5 }, 9)).toMatchObject({ captured: 16, released: 4 });
    // No cached units: as before.
    expect(splitSettlement(held, counts, 1)).toEqual({ captured: 16, released: 4, chargedTargets: 8, unchargedTargets: 0 });
    // Per-page types: the cached pages are some of the charged ones.
    const pages = { credits: 50, creditsPerTarget: 25, targetCount: 2, unitsPerTarget: 25 };
    expect(splitSettlement(pages, { succeededTargets: 2, failedTargets: 0, cancelledTargets: 0, chargedUnits: 10, cachedUnits: 4 }, 0)).toMatchObject({
      captured: 6,
      released: 44,
    });
  });

  it('captures successful targets and releases failed, blocked and cancelled ones', () => {
    const held = { credits: 50, creditsPerTarget: 5, targetCount: 10 };
    expect(splitSettlement(held, { succeededTargets: 6, failedTargets: 3, cancelledTargets: 1 })).toEqual({
      captured: 30,
      released: 20,
      chargedTargets: 6,
      unchargedTargets: 0,
    });
    expect(splitSettlement(held, { succeededTargets: 0, failedTargets: 10, cancelledTargets: 0 })).toMatchObject({ captured: 0, released: 50 });
    expect(splitSettlement(held, { succeededTargets: 10, failedTargets: 0, cancelledTargets: 0 })).toMatchObject({ captured: 50, released: 0 });
  });

  it('releases the successes delivered without charge, and counts them apart', () => {
    const held = { credits: 50, creditsPerTarget: 5, targetCount: 10 };
    expect(splitSettlement(held, { succeededTargets: 4, unchargedTargets: 3, failedTargets: 2, cancelledTargets: 1 })).toEqual({
      captured: 20,
      released: 30,
      chargedTargets: 4,
      unchargedTargets: 3,
    });
    expect(splitSettlement(held, { succeededTargets: 0, unchargedTargets: 10, failedTargets: 0, cancelledTargets: 0 })).toEqual({
      captured: 0,
      released: 50,
      chargedTargets: 0,
      unchargedTargets: 10,
    });
  });

  it('never captures more than was held, nor counts more targets than were reserved, even when the counts overstate them', () => {
    expect(splitSettlement({ credits: 10, creditsPerTarget: 5, targetCount: 2 }, { succeededTargets: 7, failedTargets: 0, cancelledTargets: 0 })).toEqual({
      captured: 10,
      released: 0,
      chargedTargets: 2,
      unchargedTargets: 0,
    });
    expect(
      splitSettlement(
        { credits: 10, creditsPerTarget: 5, targetCount: 2 },
        { succeededTargets: 1, unchargedTargets: 5, failedTargets: 0, cancelledTargets: 0 },
      ),
    ).toEqual({ captured: 5, released: 5, chargedTargets: 1, unchargedTargets: 1 });
  });

  it('charges the per-page types for the pages that yielded records, within what was held for the charged targets', () => {
    // Reviews: 3 targets holding 10 pages each at 1 credit a page.
    const held = { credits: 30, creditsPerTarget: 10, targetCount: 3, unitsPerTarget: 10 };
    expect(splitSettlement(held, { succeededTargets: 2, failedTargets: 1, cancelledTargets: 0, chargedUnits: 7 })).toEqual({
      captured: 7,
      released: 23,
      chargedTargets: 2,
      unchargedTargets: 0,
    });
    // More pages than the charged targets held are never charged.
    expect(splitSettlement(held, { succeededTargets: 1, failedTargets: 2, cancelledTargets: 0, chargedUnits: 25 })).toMatchObject({
      captured: 10,
      released: 20,
    });
    expect(splitSettlement(held, { succeededTargets: 3, failedTargets: 0, cancelledTargets: 0, chargedUnits: 0 })).toMatchObject({ captured: 0, released: 30 });
    // Without units, every charged target costs what it held.
    expect(splitSettlement(held, { succeededTargets: 2, failedTargets: 1, cancelledTargets: 0 })).toMatchObject({ captured: 20, released: 10 });
  });

  it('prices every page kind per unit', () => {
    expect(['reviews', 'offers', 'bestsellers', 'category', 'seller', 'autocomplete'].map((type) => creditsPerTarget(type as never))).toEqual([
      1, 1, 5, 5, 2, 1,
    ]);
    expect(creditsPerTarget('reviews', 10)).toBe(10);
  });
});
