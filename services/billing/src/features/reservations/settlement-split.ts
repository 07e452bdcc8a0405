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
  /** The charged targets' units, for types billed per page fetched; absent: the units held for each. */
  chargedUnits?: number | undefined;
  /** Of the charged units, those answered from the shared page cache; absent: none. */
  cachedUnits?: number | undefined;
}

export interface SettlementSplit extends TargetCharges {
  captured: number;
  released: number;
}

/**
 * Captures the charged targets (or, for types billed per page fetched, their pages) and releases everything else (uncharged successes included),
 * never more than was held. Targets the counts do not mention are released too: nobody pays for
 * an unreported target. The target figures are those the credits follow: never more than the
 * reservation's targets, the charged ones first.
 */
export function splitSettlement(
  held: { credits: number; creditsPerTarget: number; targetCount: number; unitsPerTarget?: number },
  counts: SettlementCounts,
  /** The type's price of a unit answered from the shared page cache; never more than the full one. */
  cachedCreditsPerUnit?: number,
): SettlementSplit {
  const chargedTargets = Math.min(Math.max(0, counts.succeededTargets), held.targetCount);
  const unchargedTargets = Math.min(Math.max(0, counts.unchargedTargets ?? 0), held.targetCount - chargedTargets);
  const heldForCharged = chargedTargets * held.creditsPerTarget;
  // Per-page types pay for the pages that yielded records, at the price of one unit, within what was held.
  const perUnit = held.creditsPerTarget / Math.max(1, held.unitsPerTarget ?? 1);
  const fullUnits = counts.chargedUnits === undefined ? chargedTargets * Math.max(1, held.unitsPerTarget ?? 1) : Math.max(0, counts.chargedUnits);
  // Units from the cache are some of the charged ones, captured at the cached price instead.
  const cachedUnits = Math.min(Math.max(0, counts.cachedUnits ?? 0), fullUnits);
  const cachedPrice = Math.min(perUnit, Math.max(0, cachedCreditsPerUnit ?? perUnit));
  const byUnits =
    counts.chargedUnits === undefined && cachedUnits === 0
      ? heldForCharged
      : Math.min(heldForCharged, Math.round((fullUnits - cachedUnits) * perUnit + cachedUnits * cachedPrice));
  const captured = Math.min(held.credits, byUnits);
  return { captured, released: held.credits - captured, chargedTargets, unchargedTargets, ...(cachedUnits > 0 ? { cachedUnits } : {}) };
}
