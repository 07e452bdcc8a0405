import { describe, expect, it } from 'vitest';
import { chargesLine, whyOf } from '../src/output/target-outcome.ts';

describe('target outcomes in words', () => {
  it('says why a target failed, with the kind of page that blocked it and the detail', () => {
    expect(whyOf({ value: 'a', status: 'failed', reason: 'blocked', blockKind: 'captcha', message: 'captcha (HTTP 200) after 4 attempts' })).toBe(
      'blocked (captcha): captcha (HTTP 200) after 4 attempts',
    );
    expect(whyOf({ value: 'a', status: 'failed', reason: 'unrecognized_page' })).toBe('unrecognized_page');
  });

  it('says why a success was delivered without charge, and nothing for a charged one', () => {
    expect(whyOf({ value: 'a', status: 'success', charged: false, uncharged: 'partial', message: 'price missing on 1 of 3 records' })).toBe(
      'partial: price missing on 1 of 3 records',
    );
    expect(whyOf({ value: 'a', status: 'success', charged: true })).toBeUndefined();
    expect(whyOf({ value: 'a', status: 'pending' })).toBeUndefined();
  });

  it("counts a job's charged and uncharged targets", () => {
    expect(chargesLine({ targets: [], charges: { chargedTargets: 4, unchargedTargets: 1 } })).toBe('4 charged, 1 uncharged');
    expect(
      chargesLine({
        targets: [
          { value: 'a', status: 'success', charged: true },
          { value: 'b', status: 'success', charged: false, uncharged: 'location_unverified' },
        ],
      }),
    ).toBe('1 charged, 1 uncharged');
  });
});
