import { describe, expect, it } from 'vitest';
import { chargesOf, normalizeJob } from '../src/index.ts';

describe('chargesOf', () => {
  it("takes the job's charges when the server sends them", () => {
    const job = normalizeJob({
      status: 'completed',
      targets: [{ value: 'a', status: 'success', charged: true }],
      charges: { chargedTargets: 7, unchargedTargets: 2 },
    });
    expect(chargesOf(job)).toEqual({ chargedTargets: 7, unchargedTargets: 2 });
  });

  it('counts the successes by `charged` otherwise, a success without it being charged', () => {
    const job = normalizeJob({
      status: 'completed',
      targets: [
        { value: 'a', status: 'success', charged: true },
        { value: 'b', status: 'success', charged: false, uncharged: 'partial' },
        { value: 'c', status: 'success' },
        { value: 'd', status: 'failed', reason: 'blocked', blockKind: 'captcha' },
        'e',
      ],
    });
    expect(chargesOf(job)).toEqual({ chargedTargets: 3, unchargedTargets: 1 });
  });
});
