import type { ObservedChange } from '@crawl/contracts';
import type { TargetResults, TargetResultsObserver } from '../shared/ports.ts';
import { keywordScopeOf, subjectIdOf } from './observed-subjects.ts';
import type { ObservationRepository } from './observation-repository.ts';
import { productChecks, rankChecks, type TargetRecords } from './tracked-values.ts';

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
    // History keeps products and search ranks (docs/history.md); the other page kinds have none yet.
    if (results.jobType !== 'details' && results.jobType !== 'search') return [];
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
   * every ASIN seen before that is no longer there, in one write of the keyword's heads.
   */
  async #ranks(results: TargetResults, target: TargetRecords): Promise<ObservedChange[]> {
    const { checks, coverage } = rankChecks(target);
    const first = checks[0];
    if (!first) return [];
    const { organizationId } = results;
    const { marketplace, keyword } = first.subject;
    return this.#observations.observeKeyword({
      organizationId,
      scopeId: keywordScopeOf(organizationId, marketplace, keyword),
      marketplace,
      keyword,
      checks,
      coverage,
      jobId: results.jobId,
      report: reportOf(results),
      at: results.at,
    });
  }
}

const reportOf = (results: TargetResults): string => `${results.jobId}:${results.targetIndex}`;
