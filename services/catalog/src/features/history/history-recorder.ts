import type { ObservedChange, TrackedValue } from '@crawl/contracts';
import type { TargetResults, TargetResultsObserver } from '../shared/ports.ts';
import { keywordScopeOf, subjectIdOf } from './observed-subjects.ts';
import type { ObservationCheck, ObservationDoc, ObservationRepository } from './observation-repository.ts';
import { productChecks, rankChecks, type KeywordCoverage, type TargetRecords } from './tracked-values.ts';

const GONE: ReadonlyMap<string, TrackedValue> = new Map<string, TrackedValue>([
  ['organicRank', null],
  ['sponsoredPosition', null],
  ['page', null],
]);

/**
 * Writes the observations of a successful target's stored records (one check per product, or per
 * ASIN of a keyword) and returns what changed. Idempotent per report (`<jobId>:<targetIndex>`).
 */
export class HistoryRecorder implements TargetResultsObserver {
  readonly #observations: ObservationRepository;

  constructor(parts: { observations: ObservationRepository }) {
    this.#observations = parts.observations;
  }

  async observe(results: TargetResults): Promise<ObservedChange[]> {
    const target: TargetRecords = {
      jobId: results.jobId,
      jobType: results.jobType,
      targetIndex: results.targetIndex,
      config: { domain: results.config.domain, deliveryZip: results.config.deliveryZip },
      records: results.records,
    };
    return results.jobType === 'details' ? this.#products(results, target) : this.#ranks(results, target);
  }

  async #products(results: TargetResults, target: TargetRecords): Promise<ObservedChange[]> {
    const changes: ObservedChange[] = [];
    for (const check of productChecks(target)) {
      changes.push(
        ...(await this.#observations.observe({
          organizationId: results.organizationId,
          subjectId: subjectIdOf(results.organizationId, check.subject),
          subject: check.subject,
          values: check.values,
          jobId: results.jobId,
          resultId: check.resultId,
          report: reportOf(results),
          at: results.at,
        })),
      );
    }
    return changes;
  }

  /**
   * Every ASIN the keyword's pages showed, then (when the records cover their pages completely)
   * every ASIN seen before that is no longer there: see `#gone`. The keyword's heads are read
   * once, for both.
   */
  async #ranks(results: TargetResults, target: TargetRecords): Promise<ObservedChange[]> {
    const { checks, coverage } = rankChecks(target);
    const first = checks[0];
    if (!first) return [];
    const { organizationId } = results;
    const scopeId = keywordScopeOf(organizationId, first.subject.marketplace, first.subject.keyword);
    const heads = new Map((await this.#observations.keywordHeads(organizationId, scopeId)).map((head) => [head._id, head]));
    const report = reportOf(results);
    const items: { check: ObservationCheck; head: ObservationDoc | null }[] = checks.map((check) => {
      const subjectId = subjectIdOf(organizationId, check.subject);
      return {
        check: {
          organizationId,
          subjectId,
          subject: check.subject,
          scopeId,
          values: check.values,
          jobId: results.jobId,
          resultId: check.resultId,
          report,
          at: results.at,
        },
        head: heads.get(subjectId) ?? null,
      };
    });
    if (coverage) {
      for (const head of heads.values()) {
        if (head.subject.kind !== 'rank' || coverage.present.has(head.asin) || !gone(head, coverage)) continue;
        // No row shows an absence: the target's result set does (`<jobId>:<targetIndex>`).
        items.push({
          check: {
            organizationId,
            subjectId: head._id,
            subject: head.subject,
            scopeId,
            values: GONE,
            jobId: results.jobId,
            resultId: report,
            report,
            at: results.at,
          },
          head,
        });
      }
    }
    return this.#observations.observeKnown(items);
  }
}

const reportOf = (results: TargetResults): string => `${results.jobId}:${results.targetIndex}`;

/**
 * An ASIN missing from a check's pages has left them when the check covered the page it was last
 * seen on (it would have been listed), or when it was already gone (the absence is confirmed).
 * One last seen deeper than this check looked, or whose page was never known, is left as it is:
 * a one-page check says nothing about page 3.
 */
function gone(head: ObservationDoc, coverage: KeywordCoverage): boolean {
  const page = head.values.page;
  return page === null || (typeof page === 'number' && page <= coverage.deepestPage);
}
