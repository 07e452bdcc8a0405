import { describe, expect, it } from 'vitest';
import { jobQuotaProblem, remainingOf } from './limits.ts';
import { monthKey, nextMonthStart } from './month.ts';

const defaults = { jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 };

describe('monthly quota rules', () => {
  it('keys months by the UTC calendar, whatever the local offset of the instant', () => {
    expect(monthKey(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthKey(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    expect(monthKey(new Date('2026-12-01T00:30:00.000+01:00'))).toBe('2026-11');
    expect(monthKey(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
  });

  it('resets at the first instant of the next UTC month, across the year end', () => {
    expect(nextMonthStart(new Date('2026-11-15T12:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextMonthStart(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('computes remaining as limits minus used with the spec keys', () => {
    expect(remainingOf(defaults, { jobsThisMonth: 3, targetsThisMonth: 40, exportsThisMonth: 20 })).toEqual({
      jobsPerMonth: 7,
      targetsPerMonth: 60,
      exportsPerMonth: 0,
    });
  });

  it('names the limit a job would break', () => {
    const used = { jobsThisMonth: 9, targetsThisMonth: 95, exportsThisMonth: 0 };
    expect(jobQuotaProblem(defaults, used, 5)).toBeNull();
    expect(jobQuotaProblem(defaults, used, 6)).toMatch(/target limit/);
    expect(jobQuotaProblem(defaults, { ...used, jobsThisMonth: 10 }, 1)).toMatch(/job limit/);
  });
});
