import type { TrackedValue } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { applyKeywordCheck, carriedDigest, type KeywordCheck, type RankHead } from './keyword-check.ts';

const at = (hour: number): string => new Date(Date.UTC(2026, 2, 2, hour)).toISOString();
const subject = (asin: string) => ({ kind: 'rank' as const, marketplace: 'amazon.com', keyword: 'kw', asin });

/** Check number `n` (job `job_<n>`, target 0, at hour `n`) showing `shown`, by ASIN; `deepestPage` gives it a coverage. */
function check(n: number, shown: Record<string, Record<string, TrackedValue>>, deepestPage?: number): KeywordCheck {
  return {
    organizationId: 'org_a',
    scopeId: 'scope',
    marketplace: 'amazon.com',
    keyword: 'kw',
    checks: Object.entries(shown).map(([asin, values], i) => ({
      subject: subject(asin),
      values: new Map(Object.entries(values)),
      resultId: `job_${n}:0:${i}`,
    })),
    coverage: deepestPage === undefined ? undefined : { marketplace: 'amazon.com', keyword: 'kw', deepestPage, present: new Set(Object.keys(shown)) },
    jobId: `job_${n}`,
    report: `job_${n}:0`,
    at: at(n),
  };
}

const head = (asin: string, values: Record<string, TrackedValue>, more: Partial<RankHead> = {}): RankHead => ({
  asin,
  seq: 0,
  values,
  firstSeenAt: at(0),
  lastSeenAt: at(0),
  checks: 1,
  jobId: 'job_0',
  resultId: 'job_0:0:0',
  lastJobId: 'job_0',
  lastReport: 'job_0:0',
  ...more,
});

const changesOf = (outcome: ReturnType<typeof applyKeywordCheck>) => outcome.outcomes.flatMap((one) => ('changes' in one ? one.changes : []));

describe('applyKeywordCheck', () => {
  it('opens a head per ASIN seen for the first time, in the order shown, and reports no change', () => {
    const outcome = applyKeywordCheck([], check(1, { B00000000B: { organicRank: 1, page: 1 }, B00000000A: { organicRank: 2, page: 1 } }));
    expect(outcome.heads).toEqual([
      head(
        'B00000000B',
        { organicRank: 1, page: 1 },
        { firstSeenAt: at(1), lastSeenAt: at(1), jobId: 'job_1', resultId: 'job_1:0:0', lastJobId: 'job_1', lastReport: 'job_1:0' },
      ),
      head(
        'B00000000A',
        { organicRank: 2, page: 1 },
        { firstSeenAt: at(1), lastSeenAt: at(1), jobId: 'job_1', resultId: 'job_1:0:1', lastJobId: 'job_1', lastReport: 'job_1:0' },
      ),
    ]);
    expect(outcome).toMatchObject({ closed: [], writes: true });
    expect(changesOf(outcome)).toEqual([]);
  });

  it('extends unchanged heads, closes changed ones and keeps a value first seen as no change', () => {
    const heads = [head('B00000000A', { organicRank: 1, page: 1 }), head('B00000000B', { organicRank: 2, page: 1 })];
    const outcome = applyKeywordCheck(
      heads,
      check(3, { B00000000A: { organicRank: 1, page: 1, sponsoredPosition: 4 }, B00000000B: { organicRank: 5, page: 1 } }),
    );
    expect(outcome.closed).toEqual([heads[1]]);
    expect(outcome.heads).toEqual([
      { ...heads[0], values: { organicRank: 1, page: 1, sponsoredPosition: 4 }, lastSeenAt: at(3), checks: 2, lastJobId: 'job_3', lastReport: 'job_3:0' },
      head(
        'B00000000B',
        { organicRank: 5, page: 1 },
        { seq: 1, firstSeenAt: at(3), lastSeenAt: at(3), jobId: 'job_3', resultId: 'job_3:0:1', lastJobId: 'job_3', lastReport: 'job_3:0' },
      ),
    ]);
    expect(changesOf(outcome)).toEqual([
      {
        subject: subject('B00000000B'),
        field: 'organicRank',
        previous: 2,
        current: 5,
        previousObservedAt: at(0),
        observedAt: at(3),
        jobId: 'job_3',
        resultId: 'job_3:0:1',
      },
    ]);
  });

  it('never dates a check before its head was last seen', () => {
    const outcome = applyKeywordCheck([head('B00000000A', { organicRank: 1 }, { lastSeenAt: at(5) })], check(4, { B00000000A: { organicRank: 2 } }));
    expect(outcome.heads[0]).toMatchObject({ seq: 1, firstSeenAt: at(5), lastSeenAt: at(5) });
    expect(changesOf(outcome)[0]).toMatchObject({ previousObservedAt: at(5), observedAt: at(5) });
  });

  it('marks ASINs gone from the pages the check covered, after those shown, and confirms an absence', () => {
    const heads = [
      head('B0000000P1', { organicRank: 3, page: 1 }),
      head('B0000000P3', { organicRank: 60, page: 3 }),
      head('B0000000GN', { organicRank: null, sponsoredPosition: null, page: null }),
      head('B0000000NP', { organicRank: 4 }),
    ];
    const outcome = applyKeywordCheck(heads, check(1, { B0000000NW: { organicRank: 1, page: 1 } }, 2));
    expect(changesOf(outcome).map((c) => [c.subject.asin, c.field, c.previous, c.current, c.resultId])).toEqual([
      ['B0000000P1', 'organicRank', 3, null, 'job_1:0'],
      ['B0000000P1', 'page', 1, null, 'job_1:0'],
    ]);
    const byAsin = new Map(outcome.heads.map((h) => [h.asin, h]));
    // Last seen on page 3 (deeper than this check looked) and never on a known page: left as they were.
    expect(byAsin.get('B0000000P3')).toBe(heads[1]);
    expect(byAsin.get('B0000000NP')).toBe(heads[3]);
    expect(byAsin.get('B0000000GN')).toMatchObject({ seq: 0, checks: 2, lastSeenAt: at(1) });
    expect(outcome.heads.map((h) => h.asin)).toEqual(['B0000000P1', 'B0000000P3', 'B0000000GN', 'B0000000NP', 'B0000000NW']);
    // Without a coverage (an incomplete result set), nobody is marked.
    expect(changesOf(applyKeywordCheck(heads, check(1, { B0000000NW: { organicRank: 1, page: 1 } })))).toEqual([]);
  });

  it('names the heads that saw the report already and writes nothing when all did', () => {
    const heads = [head('B00000000A', { organicRank: 1 }, { seq: 1, jobId: 'job_0' })];
    const outcome = applyKeywordCheck(heads, check(0, { B00000000A: { organicRank: 1 } }));
    expect(outcome).toMatchObject({ writes: false, closed: [], heads });
    expect(outcome.outcomes).toEqual([{ replayOf: expect.objectContaining({ resultId: 'job_0:0:0' }), head: heads[0] }]);
  });

  it('digests what a check carries: the ASINs with their values and the pages it covered, not when or by whom', () => {
    const shown = { B00000000A: { organicRank: 1, page: 1 }, B00000000B: { organicRank: 2, page: 1, sponsoredPosition: null } };
    const digest = carriedDigest(check(1, shown, 1));
    expect(carriedDigest(check(7, shown, 1))).toBe(digest);
    // The same values set in another order.
    const reordered = check(1, { B00000000A: { page: 1, organicRank: 1 }, B00000000B: { sponsoredPosition: null, page: 1, organicRank: 2 } }, 1);
    expect(carriedDigest(reordered)).toBe(digest);
    for (const other of [
      check(1, shown),
      check(1, shown, 2),
      check(1, { ...shown, B00000000B: { organicRank: 3, page: 1, sponsoredPosition: null } }, 1),
      check(1, { ...shown, B00000000B: { organicRank: 2, page: 1 } }, 1),
      check(1, { B00000000A: { organicRank: 1, page: 1 } }, 1),
      check(1, { ...shown, B00000000A: { organicRank: '1', page: 1 } }, 1),
    ])
      expect(carriedDigest(other)).not.toBe(digest);
    // An ASIN present without a value is present all the same.
    const withSilent = check(1, shown, 1);
    withSilent.coverage = { ...(withSilent.coverage as NonNullable<KeywordCheck['coverage']>), present: new Set([...Object.keys(shown), 'B00000000C']) };
    expect(carriedDigest(withSilent)).not.toBe(digest);
  });
});
