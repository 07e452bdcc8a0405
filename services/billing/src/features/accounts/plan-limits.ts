import type { UsageLimits } from '@crawl/contracts';

/** An organization's own limits (its plan); a missing key falls back to the configured default. */
export type LimitOverrides = Partial<Record<keyof UsageLimits, number>>;

export function effectiveLimits(defaults: UsageLimits, overrides: LimitOverrides | undefined): UsageLimits {
  return {
    jobsPerMonth: overrides?.jobsPerMonth ?? defaults.jobsPerMonth,
    targetsPerMonth: overrides?.targetsPerMonth ?? defaults.targetsPerMonth,
    exportsPerMonth: overrides?.exportsPerMonth ?? defaults.exportsPerMonth,
  };
}
