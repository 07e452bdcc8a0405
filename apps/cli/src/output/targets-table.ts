import { coverageInWords, type Job, type TargetStatus } from '@crawl/sdk';
import { table } from './table.ts';
import { whyOf } from './target-outcome.ts';

/** What a target was resolved to (an ASIN, node id, seller id or prefix), when that says more than the target as typed. */
const resolvedKey = (target: Job['targets'][number]): string | undefined => {
  const key = target.asin ?? target.key;
  return key !== undefined && key !== target.value ? key : undefined;
};

/**
 * A job's targets, one row each: status, results, charged and why it failed or went uncharged;
 * KEY (the resolved id) when a target's differs from what was typed, and COVERAGE (`120 of 1,234
 * reviews — stopped by a sign-in wall`) when a target reported one.
 */
export function targetsTable(job: Pick<Job, 'targets'>, status: (status: TargetStatus) => string): string {
  const withKey = job.targets.some((t) => resolvedKey(t) !== undefined);
  const withCoverage = job.targets.some((t) => t.coverage !== undefined);
  const head = ['#', 'TARGET', ...(withKey ? ['KEY'] : []), 'STATUS', 'RESULTS', 'CHARGED', 'REASON', ...(withCoverage ? ['COVERAGE'] : [])];
  const rows = job.targets.map((t, i) => [
    i,
    t.value,
    ...(withKey ? [resolvedKey(t) ?? ''] : []),
    status(t.status),
    t.resultCount,
    t.charged === undefined ? '' : t.charged ? 'yes' : 'no',
    whyOf(t),
    ...(withCoverage ? [t.coverage ? coverageInWords(t.coverage) : ''] : []),
  ]);
  return table(head, rows);
}
