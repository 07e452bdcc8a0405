import { CREDITS_PER_TARGET, type JobType } from '@crawl/contracts';

/** Credits one target costs: 5 per keyword, 2 per ASIN, times the billable pages (`unitsPerTarget`). */
export function creditsPerTarget(jobType: JobType, unitsPerTarget = 1): number {
  return CREDITS_PER_TARGET[jobType] * unitsPerTarget;
}

export interface SettlementCounts {
  succeededTargets: number;
  failedTargets: number;
  cancelledTargets: number;
}

/**
 * Captures the successful targets and releases everything else, never more than was held.
 * Targets the counts do not mention are released too: nobody pays for an unreported target.
 */
export function splitSettlement(
  held: { credits: number; creditsPerTarget: number; targetCount: number },
  counts: SettlementCounts,
): { captured: number; released: number } {
  const succeeded = Math.min(Math.max(0, counts.succeededTargets), held.targetCount);
  const captured = Math.min(held.credits, succeeded * held.creditsPerTarget);
  return { captured, released: held.credits - captured };
}
