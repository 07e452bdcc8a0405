import { CREDITS_PER_TARGET, type JobType } from '@crawl/contracts';

/**
 * What a job will reserve, as the catalog computes it: credits per target of the type, times the
 * pages of a search, for each distinct target (duplicates are removed before billing).
 */
export function jobCost(type: JobType, targets: readonly string[], pages = 1): number {
  return distinctTargets(targets).length * CREDITS_PER_TARGET[type] * (type === 'search' ? Math.max(1, pages) : 1);
}

/** One target per non-blank line, trimmed, first occurrence kept. */
export function distinctTargets(lines: readonly string[]): string[] {
  return [...new Set(lines.map((line) => line.trim()).filter((line) => line.length > 0))];
}

export function targetsFromText(text: string): string[] {
  return distinctTargets(text.split(/\r?\n/));
}
