import type { UsageLimits, UsageUsed } from '@crawl/contracts';

/** Spec: `remaining` equals `limits` minus `used` (negative only if an admin lowered a limit below what was used). */
export function remainingOf(limits: UsageLimits, used: UsageUsed): UsageLimits {
  return {
    jobsPerMonth: limits.jobsPerMonth - used.jobsThisMonth,
    targetsPerMonth: limits.targetsPerMonth - used.targetsThisMonth,
    exportsPerMonth: limits.exportsPerMonth - used.exportsThisMonth,
  };
}

/** Which limit a job of `targets` targets would break, or null when both allow it. */
export function jobQuotaProblem(limits: UsageLimits, used: UsageUsed, targets: number): string | null {
  if (used.jobsThisMonth + 1 > limits.jobsPerMonth) {
    return `Monthly job limit reached (${limits.jobsPerMonth} jobs per month)`;
  }
  if (used.targetsThisMonth + targets > limits.targetsPerMonth) {
    return `Monthly target limit reached (${limits.targetsPerMonth} targets per month, ${Math.max(0, limits.targetsPerMonth - used.targetsThisMonth)} left, ${targets} requested)`;
  }
  return null;
}
