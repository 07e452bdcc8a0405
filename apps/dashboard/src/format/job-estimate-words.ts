import type { JobEstimate } from '@crawl/contracts';
import { duration } from './dates.ts';

/** The estimate's credits in words: a ceiling for the types charged by the pages that yield records. */
export function estimateCreditsText(estimate: JobEstimate): string {
  const credits = `${estimate.credits.toLocaleString('en-US')} credit${estimate.credits === 1 ? '' : 's'}`;
  return estimate.billedPerPageFetched ? `at most ${credits}` : credits;
}

/** Whether the balance covers the job, with the figures (the create answers 402 when it does not). */
export function balanceText(estimate: JobEstimate): string {
  const available = estimate.balance.available.toLocaleString('en-US');
  return estimate.balance.sufficient
    ? `the balance covers it (${available} available)`
    : `not enough credits: ${available} available, ${estimate.credits.toLocaleString('en-US')} needed`;
}

/** The monthly limits the job counts against, said only as far as they matter. */
export function quotaText(estimate: JobEstimate): string {
  const { quota, targetCount } = estimate;
  if (quota.exceedsJobs) return `over the monthly job limit (${quota.limits.jobsPerMonth.toLocaleString('en-US')} jobs)`;
  if (quota.exceedsTargets) {
    return `over the monthly target limit: ${targetCount.toLocaleString('en-US')} targets, ${quota.remaining.targetsPerMonth.toLocaleString('en-US')} left this month`;
  }
  return `uses ${targetCount.toLocaleString('en-US')} of the ${quota.remaining.targetsPerMonth.toLocaleString('en-US')} targets left this month`;
}

/** Where the job would wait and when it would be done, had it been created now. */
export function queueText(estimate: JobEstimate): string {
  const { position, targetsAhead, etaSeconds } = estimate.queue;
  const ahead = `${targetsAhead.toLocaleString('en-US')} target${targetsAhead === 1 ? '' : 's'} ahead`;
  const eta = etaSeconds === null ? 'no ETA until throughput is measured' : `done in about ${duration(etaSeconds)}`;
  return `#${position} in your queue, ${ahead}, ${eta}`;
}

/** The cap against the estimate: the create is refused (402) when the job would reserve more. */
export function maxCreditsText(estimate: JobEstimate): string | null {
  if (estimate.maxCredits === undefined) return null;
  return estimate.withinMaxCredits
    ? `within your cap of ${estimate.maxCredits.toLocaleString('en-US')}`
    : `over your cap of ${estimate.maxCredits.toLocaleString('en-US')}: the job would be refused`;
}

/** The "Spend at most" field: empty is no cap; otherwise a whole number of at least 1. */
export function parseMaxCredits(text: string): { value: number | undefined } | { error: string } {
  const trimmed = text.trim().replace(/[,_\s]/g, '');
  if (trimmed === '') return { value: undefined };
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) return { error: 'Spend at most: a whole number of credits, 1 or more.' };
  return { value: Number(trimmed) };
}
