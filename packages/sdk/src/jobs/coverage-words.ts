import type { TargetCoverage } from '@crawl/contracts';

/** What stopped a target short of everything the marketplace holds, as the end of a sentence. */
const LIMITED_BY_WORDS: Readonly<Record<TargetCoverage['limitedBy'], string>> = {
  none: 'all there are',
  maxReviews: 'stopped at the job’s maxReviews',
  page_cap: 'the marketplace shows no more pages',
  signin_wall: 'stopped by a sign-in wall',
};

/**
 * How much of a target's reviews were fetched, in words: `120 of 1,234 reviews — stopped by a
 * sign-in wall`. The total is the reviews with text when the page counts them, else its ratings;
 * with neither, only what was fetched. Numbers are grouped as in `en-US` so a CLI, a log and a
 * page say the same.
 */
export function coverageInWords(coverage: TargetCoverage): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const fetched = count(coverage.fetched);
  const of =
    coverage.totalReviews !== undefined
      ? `${fetched} of ${count(coverage.totalReviews)} reviews`
      : coverage.totalRatings !== undefined
        ? `${fetched} of ${count(coverage.totalRatings)} ratings`
        : `${fetched} fetched`;
  return `${of} — ${LIMITED_BY_WORDS[coverage.limitedBy] ?? coverage.limitedBy}`;
}
