import { hash } from 'node:crypto';
import { RANK_TRACKED_FIELDS, type ObservedChange, type TrackedValue } from '@crawl/contracts';
import { changesOf, mergeValues, notBefore, type ChangePoint, type CheckedValues } from './change-points.ts';
import type { RankSubjectOf } from './observed-subjects.ts';
import type { CarriedValues, KeywordCoverage, SubjectCheck } from './tracked-values.ts';

/**
 * One ASIN's open change point in a keyword's search results, as it stands (the keyword's heads
 * document and tally keep it: see `KeywordHeadsDoc`): its values since `firstSeenAt` (the check
 * `jobId`/`resultId` opened it), the last check that saw them (`lastSeenAt`, `lastJobId`,
 * `lastReport`) and how many did (`checks`).
 */
export interface RankHead extends ChangePoint {
  jobId: string;
  resultId: string;
  lastJobId: string;
  /** `<jobId>:<targetIndex>` of the last check: the same report delivered again is recognised. */
  lastReport: string;
}

/** A search target's checks of one keyword, as the recorder hands them over. */
export interface KeywordCheck {
  organizationId: string;
  scopeId: string;
  marketplace: string;
  keyword: string;
  /** One per ASIN the pages showed. */
  checks: readonly SubjectCheck<RankSubjectOf>[];
  /** Present when the records tell which ASINs have left the pages (see `rankChecks`). */
  coverage: KeywordCoverage | undefined;
  jobId: string;
  /** `<jobId>:<targetIndex>`. */
  report: string;
  at: string;
}

/** What one ASIN's check came to: its changes, or (a report seen before) the head it opened then, if any. */
export type CheckOutcome = { changes: ObservedChange[] } | { replayOf: CheckedValues; head: RankHead };

/** A keyword's heads after a check, the heads it closed (to be kept as rows) and each ASIN's outcome in order. */
export interface KeywordOutcome {
  heads: RankHead[];
  closed: RankHead[];
  outcomes: CheckOutcome[];
  /** The ASINs whose heads the check wrote (extended, moved on or opened). */
  touched: ReadonlySet<string>;
  /** Whether some head had seen this report already (and was left as it was). */
  replayed: boolean;
  /** False when the check changes nothing stored (every ASIN's head has seen this report already). */
  writes: boolean;
}

const GONE: CarriedValues = new Map<string, TrackedValue>([
  ['organicRank', null],
  ['sponsoredPosition', null],
  ['page', null],
]);

/**
 * Applies a search target's checks to its keyword's heads (as just read; none for a keyword seen
 * for the first time): every ASIN the pages showed, then every ASIN seen before that has left
 * them (see `gone`), in that order, each as a subject of its own. A head whose values the check
 * carries unchanged is extended; a change closes it and opens the next (`seq + 1`); an ASIN seen
 * for the first time opens its first. A head that saw this report already counts nothing: its
 * outcome names it, so the changes the report brought can be told again. Pure: the caller writes.
 */
export function applyKeywordCheck(heads: readonly RankHead[], check: KeywordCheck): KeywordOutcome {
  const next = new Map(heads.map((head) => [head.asin, head]));
  const closed: RankHead[] = [];
  const outcomes: CheckOutcome[] = [];
  const touched = new Set<string>();
  let replayed = false;
  const subjectOf = (asin: string): RankSubjectOf => ({ kind: 'rank', marketplace: check.marketplace, keyword: check.keyword, asin });
  const items: CheckedValues[] = check.checks.map((one) => ({ subject: one.subject, values: one.values, jobId: check.jobId, resultId: one.resultId }));
  if (check.coverage) {
    const { present } = check.coverage;
    for (const head of heads) {
      // No row shows an absence: the target's result set does (`<jobId>:<targetIndex>`).
      if (!present.has(head.asin) && gone(head, check.coverage))
        items.push({ subject: subjectOf(head.asin), values: GONE, jobId: check.jobId, resultId: check.report });
    }
  }
  const last = { lastJobId: check.jobId, lastReport: check.report };
  for (const item of items) {
    const { asin } = item.subject;
    const head = next.get(asin);
    if (item.values.size === 0) outcomes.push({ changes: [] });
    else if (!head) {
      next.set(asin, {
        asin,
        seq: 0,
        values: mergeValues({}, item.values),
        firstSeenAt: check.at,
        lastSeenAt: check.at,
        checks: 1,
        jobId: check.jobId,
        resultId: item.resultId,
        ...last,
      });
      touched.add(asin);
      outcomes.push({ changes: [] });
    } else if (head.lastReport === check.report) {
      replayed = true;
      outcomes.push({ replayOf: item, head });
    } else {
      const at = notBefore(check.at, head.lastSeenAt);
      const changes = changesOf(item, head, at);
      const values = mergeValues(head.values, item.values);
      if (changes.length === 0) next.set(asin, { ...head, values, lastSeenAt: at, checks: head.checks + 1, ...last });
      else {
        closed.push(head);
        next.set(asin, { asin, seq: head.seq + 1, values, firstSeenAt: at, lastSeenAt: at, checks: 1, jobId: check.jobId, resultId: item.resultId, ...last });
      }
      touched.add(asin);
      outcomes.push({ changes });
    }
  }
  return { heads: [...next.values()], closed, outcomes, touched, replayed, writes: touched.size > 0 };
}

/**
 * A digest of what a check carries that decides its outcome but for the heads: the ASINs shown
 * with their values, and how deep it covered the pages. A check carrying the same as the last
 * check of the keyword, applied to the heads that check left, changes nothing and extends the
 * same heads (the gone stay gone, those deeper than it looked stay untouched): one comparison.
 * The ASINs in the order shown (the same pages list them in the same order). On the report path
 * for every search target, so its text is built by hand: an ASIN is ten letters and digits,
 * field names are fixed, and a string value is quoted.
 */
export function carriedDigest(check: KeywordCheck): string {
  const shown: string[] = [];
  for (const one of check.checks) {
    let entry = one.subject.asin;
    for (const field of fieldsInOrder(one.values)) {
      const value = one.values.get(field);
      entry += `,${field}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
    }
    shown.push(entry);
  }
  // An ASIN shown without a value it carries reliably is present all the same (it has not left):
  // named too (a complete result set, the only kind that marks absences, has none).
  const { coverage } = check;
  if (coverage && coverage.present.size !== check.checks.length) shown.push(`present:${[...coverage.present].sort().join(',')}`);
  return hash('sha256', `${coverage?.deepestPage ?? '-'};${shown.join(';')}`, 'base64url').slice(0, 22);
}

const RANK_FIELDS: readonly string[] = RANK_TRACKED_FIELDS;

/** A check's fields in one order whatever order they were set in: the rank fields', then any other by name. */
function fieldsInOrder(values: CarriedValues): string[] {
  const fields = RANK_FIELDS.filter((field) => values.has(field));
  if (fields.length < values.size) fields.push(...[...values.keys()].filter((field) => !RANK_FIELDS.includes(field)).sort());
  return fields;
}

/**
 * An ASIN missing from a check's pages has left them when the check covered the page it was last
 * seen on (it would have been listed), or when it was already gone (the absence is confirmed).
 * One last seen deeper than this check looked, or whose page was never known, is left as it is:
 * a one-page check says nothing about page 3.
 */
function gone(head: RankHead, coverage: KeywordCoverage): boolean {
  const page = head.values.page;
  return page === null || (typeof page === 'number' && page <= coverage.deepestPage);
}
