import type { JobStateResponse, ReconcileReport } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { CreditLedger } from '../ledger/index.ts';
import type { UsageCounters } from '../quotas/index.ts';
import type { Reservations } from '../reservations/index.ts';
import type { BillingResources, Logger } from '../shared/index.ts';

/**
 * Catalog's answer about one job. `exists: false` must be final: catalog marks the id abandoned
 * before answering, so a create still storing that job takes it back instead of running it.
 */
export type JobStateLookup = (jobId: string) => Promise<JobStateResponse['data']>;

export interface ReconcilerOptions {
  ledger: CreditLedger;
  usage: UsageCounters;
  reservations: Reservations;
  /** Undefined when catalog is not reachable from this process: only the age rules run then. */
  jobState?: JobStateLookup;
  pendingTimeoutMs: number;
  orphanAfterMs: number;
  maxHoldMs: number;
}

export interface OrphanReport {
  released: number;
  confirmed: number;
  catalogChecked: boolean;
}

/** Holds asked about per page of the orphan check. */
const ORPHAN_PAGE = 200;

/** Interrupted settlements and releases are finished after this long (their request died). */
const RESUME_AFTER_MS = 60_000;

/**
 * Releases credit holds nobody will settle. Rules, in order:
 * 1. a reservation still `pending` after RESERVATION_PENDING_TIMEOUT_MS (the reserve request died
 *    mid-way; the caller never got an answer, so no job exists): roll back credits and quota;
 * 2. a settlement or release interrupted more than a minute ago: finish it;
 * 3. a `held` reservation older than RESERVATION_ORPHAN_AFTER_MS (30 s) whose job catalog does not
 *    know: release credits and quota (the job never came to exist; catalog marks it abandoned so
 *    it never will). Also run alone every RESERVATION_ORPHAN_CHECK_INTERVAL_MS (`releaseOrphans`);
 * 4. a `held` reservation older than RESERVATION_MAX_HOLD_MS: release in full (the job never
 *    finished in time; a settlement arriving later reports `alreadySettled` and changes nothing);
 * 5. ledger entries logged but not applied (a crash between the two writes): apply them;
 * 6. monthly-counter operations interrupted between their writes: finish them (counted as
 *    `resumed`), and refused reservation attempts: undo them once more and close them (`void`).
 */
export class Reconciler {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #options: ReconcilerOptions;
  #running: Promise<ReconcileReport> | null = null;
  #orphansRunning: Promise<OrphanReport> | null = null;

  constructor(resources: BillingResources, options: ReconcilerOptions) {
    this.#clock = resources.clock;
    this.#logger = resources.logger;
    this.#options = options;
  }

  /** One pass; concurrent calls share the pass in progress. */
  reconcile(now: Date = this.#clock.now()): Promise<ReconcileReport> {
    this.#running ??= this.#pass(now).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Rule 3 alone, run more often than the full pass (RESERVATION_ORPHAN_CHECK_INTERVAL_MS) so a
   * hold whose job was never stored goes back within a minute. Concurrent calls share one run.
   */
  releaseOrphans(now: Date = this.#clock.now()): Promise<OrphanReport> {
    this.#orphansRunning ??= this.#releaseOrphans(now).finally(() => {
      this.#orphansRunning = null;
    });
    return this.#orphansRunning;
  }

  async #releaseOrphans(now: Date): Promise<OrphanReport> {
    const report: OrphanReport = { released: 0, confirmed: 0, catalogChecked: false };
    const lookup = this.#options.jobState;
    if (!lookup) return report;
    const { reservations } = this.#options;
    const cutoff = new Date(now.getTime() - this.#options.orphanAfterMs).toISOString();
    // Page after page while pages come back full (a page of holds already seen in this run ends it).
    const seen = new Set<string>();
    for (;;) {
      const page = await reservations.unconfirmed(cutoff, ORPHAN_PAGE);
      const fresh = page.filter((doc) => !seen.has(doc._id));
      for (const doc of fresh) {
        seen.add(doc._id);
        let state: JobStateResponse['data'];
        try {
          state = await lookup(doc._id);
          report.catalogChecked = true;
        } catch (error) {
          // Catalog is down or failing: the next run asks again rather than every hold failing now.
          this.#logger.warn({ err: error, jobId: doc._id }, 'reconciler could not ask catalog about a job; will try again');
          return report;
        }
        if (state.exists) {
          await reservations.confirmJob(doc._id);
          report.confirmed += 1;
          continue;
        }
        const decided = await reservations.startRelease(doc, 'job was never created', true);
        if (decided) {
          await reservations.completeRelease(decided);
          report.released += 1;
        }
      }
      if (fresh.length === 0 || page.length < ORPHAN_PAGE) return report;
    }
  }

  async #pass(now: Date): Promise<ReconcileReport> {
    const { reservations, ledger } = this.#options;
    const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const report: ReconcileReport = { abortedPending: 0, resumed: 0, releasedMissingJobs: 0, releasedExpired: 0, rolledForward: 0, catalogChecked: false };

    for (const doc of await reservations.stale('pending', before(this.#options.pendingTimeoutMs), 'createdAt')) {
      const decided = await reservations.startRelease(doc, 'reserve request did not finish', true);
      if (decided) {
        await reservations.completeRelease(decided);
        report.abortedPending += 1;
      }
    }

    for (const doc of await reservations.stale('settling', before(RESUME_AFTER_MS), 'updatedAt')) {
      await reservations.completeSettlement(doc);
      report.resumed += 1;
    }
    for (const doc of await reservations.stale('releasing', before(RESUME_AFTER_MS), 'updatedAt')) {
      await reservations.completeRelease(doc);
      report.resumed += 1;
    }

    for (const doc of await reservations.stale('held', before(this.#options.maxHoldMs), 'createdAt')) {
      const decided = await reservations.startRelease(doc, 'job did not finish within the hold deadline', false);
      if (decided) {
        await reservations.completeRelease(decided);
        report.releasedExpired += 1;
      }
    }

    const orphans = await this.#releaseOrphans(now);
    report.releasedMissingJobs = orphans.released;
    report.catalogChecked = orphans.catalogChecked;

    for (const organizationId of await ledger.organizationsWithUnapplied(before(RESUME_AFTER_MS))) {
      report.rolledForward += await ledger.markApplied(organizationId);
    }

    report.resumed += await this.#options.usage.resolveInflight(before(RESUME_AFTER_MS));
    let closed = 0;
    for (const doc of await reservations.stale('refused', before(RESUME_AFTER_MS), 'updatedAt')) {
      if (await reservations.closeRefused(doc)) closed += 1;
    }
    if (closed > 0) this.#logger.info({ closed }, 'billing reconciler closed refused reservation attempts');

    if (report.abortedPending + report.resumed + report.releasedMissingJobs + report.releasedExpired + report.rolledForward > 0) {
      this.#logger.info({ report }, 'billing reconciler released or finished reservations');
    }
    return report;
  }
}
