import { CREDITS_PER_TARGET, type JobConfig, type JobType, unitsPerTarget } from '@crawl/contracts';

export { BILLED_PER_PAGE_FETCHED, unitsPerTarget } from '@crawl/contracts';

/**
 * What a job will reserve, as the catalog computes it: credits per unit of the type times the
 * units each distinct target holds (duplicates are removed before billing). For reviews and
 * offers it is the most the job is charged.
 */
export function jobCost(type: JobType, targets: readonly string[], config: JobConfig = {}): number {
  return distinctTargets(targets).length * CREDITS_PER_TARGET[type] * unitsPerTarget(type, config);
}

/** One target per non-blank line, trimmed, first occurrence kept. */
export function distinctTargets(lines: readonly string[]): string[] {
  return [...new Set(lines.map((line) => line.trim()).filter((line) => line.length > 0))];
}

export function targetsFromText(text: string): string[] {
  return distinctTargets(text.split(/\r?\n/));
}
