import { describe, expect, it } from 'vitest';
import { effectiveLimits } from './plan-limits.ts';

const defaults = { jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 };

describe('plan limits', () => {
  it("takes an organization's own limits over the defaults, key by key", () => {
    expect(effectiveLimits(defaults, undefined)).toEqual(defaults);
    expect(effectiveLimits(defaults, { jobsPerMonth: 500, exportsPerMonth: 0 })).toEqual({ jobsPerMonth: 500, targetsPerMonth: 100, exportsPerMonth: 0 });
  });
});
