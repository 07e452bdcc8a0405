import { annotateLogContext } from '@crawl/logging';
import type { JobMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import type { OutboxEvents } from '../events/index.ts';
import type { BillingPort, Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { cachedUnits, chargedUnits, countTargets, type JobDoc } from './job-model.ts';
import { BILLED_PER_PAGE_FETCHED } from './job-units.ts';
import type { JobRepository } from './job-repository.ts';

/** A settlement lease older than this is considered abandoned (crashed settler) and retaken. */
const SETTLE_LEASE_MS = 60_000;
const UNSETTLED_BATCH = 100;

/** Billing's settlement of terminal jobs, exactly once each, and the job-finished announcement. */
export class JobSettlement {
  readonly #jobs: JobRepository;
  readonly #clock: Clock;
  readonly #billing: () => BillingPort;
  readonly #events: OutboxEvents;
  readonly #logger: Logger;
  readonly #metrics: JobMetrics;

  constructor(resources: CatalogResources, parts: { jobs: JobRepository; events: OutboxEvents }) {
    this.#jobs = parts.jobs;
    this.#clock = resources.clock;
    this.#billing = resources.billing;
    this.#events = parts.events;
    this.#logger = resources.logger;
    this.#metrics = resources.metrics;
  }

  /** Settle with billing, then announce. Called by whoever moved the job to a terminal state. */
  async afterTerminal(job: JobDoc): Promise<void> {
    annotateLogContext({ orgId: job.organizationId, jobId: job._id });
    const finishedAt = job.completedAt ?? this.#clock.now().toISOString();
    const seconds = (Date.parse(finishedAt) - Date.parse(job.createdAt)) / 1000;
    this.#metrics.jobFinished(job.type, job.status, Number.isFinite(seconds) ? seconds : undefined);
    const counts = countTargets(job.targets);
    this.#logger.info(
      {
        orgId: job.organizationId,
        jobId: job._id,
        status: job.status,
        succeeded: counts.succeeded,
        uncharged: counts.uncharged,
        failed: counts.failed,
        seconds,
      },
      'job finished',
    );
    await this.settle(job._id);
    try {
      await this.#events.jobFinished({
        jobId: job._id,
        organizationId: job.organizationId,
        projectId: job.projectId,
        status: job.status as 'completed' | 'failed' | 'cancelled',
        occurredAt: job.completedAt ?? this.#clock.now().toISOString(),
      });
    } catch (error) {
      this.#logger.error({ err: error, jobId: job._id }, 'recording the job-finished event failed');
    }
  }

  /**
   * Exactly one caller at a time holds the settlement lease; billing's settle is idempotent on
   * the job id as well. @returns true when the job is now settled.
   */
  async settle(jobId: string): Promise<boolean> {
    const now = this.#clock.now();
    const claimed = await this.#jobs.takeSettleLease(jobId, now.toISOString(), new Date(now.getTime() - SETTLE_LEASE_MS).toISOString());
    if (!claimed) return false;
    const counts = countTargets(claimed.targets);
    // Billing captures `succeededTargets` only: a success delivered without charge is released
    // with the failures, and counted apart so the ledger and usage can show it.
    const fromCache = cachedUnits(claimed);
    const settlement = {
      succeeded: counts.succeeded - counts.uncharged,
      failed: counts.failed,
      cancelled: counts.cancelled + counts.open,
      uncharged: counts.uncharged,
    };
    try {
      await this.#billing().settle({
        organizationId: claimed.organizationId,
        jobId,
        succeededTargets: settlement.succeeded,
        failedTargets: settlement.failed,
        cancelledTargets: settlement.cancelled,
        unchargedTargets: settlement.uncharged,
        ...(BILLED_PER_PAGE_FETCHED.has(claimed.type) ? { chargedUnits: chargedUnits(claimed) } : {}),
        // Targets answered from the shared page cache are captured at the cached price.
        ...(fromCache > 0 ? { cachedUnits: fromCache } : {}),
      });
    } catch (error) {
      this.#logger.error({ err: error, jobId }, 'settling the job with billing failed; the maintenance loop retries');
      await this.#jobs.releaseSettleLease(jobId);
      return false;
    }
    await this.#jobs.markSettled(jobId, settlement, this.#clock.now().toISOString());
    this.#logger.info({ orgId: claimed.organizationId, jobId, ...settlement }, 'job settled');
    return true;
  }

  /** Terminal jobs whose settlement did not go through (billing down, crash) are settled again. */
  async settleUnsettled(): Promise<number> {
    let settled = 0;
    for (const job of await this.#jobs.findUnsettled(UNSETTLED_BATCH)) if (await this.settle(job._id)) settled += 1;
    return settled;
  }
}
