import { CREDITS_PER_TARGET, type JobType, type TargetCharges } from '@crawl/contracts';

/** Credits one target costs: 5 per keyword, 2 per ASIN, times the billable pages (`unitsPerTarget`). */
export function creditsPerTarget(jobType: JobType, unitsPerTarget = 1): number {
  return CREDITS_PER_TARGET[jobType] * unitsPerTarget;
}

export interface SettlementCounts {
  /** The successes to charge. */
  succeededTargets: number;
  failedTargets: number;
  cancelledTargets: number;
  /** Successes delivered without charge; absent from callers that predate them. */
  unchargedTargets?: number | undefined;
}

export interface SettlementSplit extends TargetCharges {
  captured: number;
  released: number;
}

/**
 * Captures the charged targets and releases everything else (uncharged successes included),
 * never more than was held. Targets the counts do not mention are released too: nobody pays for
 * an unreported target. The target figures are those the credits follow: never more than the
 * reservation's targets, the charged ones first.
 */
export function splitSettlement(held: { credits: number; creditsPerTarget: number; targetCount: number }, counts: SettlementCounts): SettlementSplit {
  const chargedTargets = Math.min(Math.max(0, counts.succeededTargets), held.targetCount);
  const unchargedTargets = Math.min(Math.max(0, counts.unchargedTargets ?? 0), held.targetCount - chargedTargets);
  const captured = Math.min(held.credits, chargedTargets * held.creditsPerTarget);
  return { captured, released: held.credits - captured, chargedTargets, unchargedTargets };
}
