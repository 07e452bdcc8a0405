import type { JobType, Reservation, ReserveBody, SettleBody, Settlement } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import type { Accounts } from '../accounts/index.ts';
import type { CreditLedger } from '../ledger/index.ts';
import type { UsageCounters } from '../quotas/index.ts';
import type { BillingResources } from '../shared/index.ts';
import { isRefused, type ReservationDoc, type ReservationRepository, type ReservationState } from './reservation-repository.ts';
import { toReservationView } from './reservation-view.ts';
import { attemptOf, ReserveAttempts } from './reserve-attempts.ts';
import { splitSettlement } from './settlement-split.ts';

export type { ReservationDoc, ReservationState } from './reservation-repository.ts';
export { toReservationView } from './reservation-view.ts';

export interface ReservationsOptions {
  repository: ReservationRepository;
  ledger: CreditLedger;
  usage: UsageCounters;
  accounts: Accounts;
  /** Credits per unit answered from the shared page cache, by job type (types absent: the full price). */
  cachedCredits?: Partial<Record<JobType, number>>;
}

/**
 * Credit holds for jobs: reserve at create/retry (ReserveAttempts), settle once when the job
 * ends, release if it never existed.
 */
export class Reservations {
  readonly #repository: ReservationRepository;
  readonly #clock: Clock;
  readonly #options: ReservationsOptions;
  readonly #attempts: ReserveAttempts;

  constructor(resources: BillingResources, options: ReservationsOptions) {
    this.#repository = options.repository;
    this.#clock = resources.clock;
    this.#options = options;
    this.#attempts = new ReserveAttempts(resources, { ...options, completeRelease: (doc) => this.completeRelease(doc) });
  }

  /** The reservation of a job; a refused attempt is no reservation. */
  async find(jobId: string): Promise<ReservationDoc | null> {
    const claim = await this.#repository.findReservation(jobId);
    return claim && !isRefused(claim) ? claim : null;
  }

  /**
   * Takes the monthly quota (job + targets) and holds the credits, idempotently on the job id: a
   * repeat returns the same reservation, also while the first call is still running. A 403 or 402
   * leaves nothing consumed. See ReserveAttempts.
   */
  reserve(body: ReserveBody): Promise<Reservation> {
    return this.#attempts.reserve(body);
  }

  /** The reconciler's sweep: undo a refused attempt once more (a racing driver may have held credits), then close it. */
  closeRefused(claim: ReservationDoc): Promise<boolean> {
    return this.#attempts.closeRefused(claim);
  }

  /** Exactly once per job: the first call decides the figures, later calls report them. */
  async settle(body: SettleBody): Promise<Settlement> {
    await this.#options.accounts.ensure(body.organizationId);
    let current = await this.find(body.jobId);
    if (!current || current.organizationId !== body.organizationId) throw errors.notFound('Reservation');
    if (current.status === 'pending') throw errors.conflict('The reservation for this job is still being taken');
    if (current.status === 'held') {
      const split = splitSettlement(current, body, this.#options.cachedCredits?.[current.jobType]);
      const outcome = {
        succeeded: body.succeededTargets,
        failed: body.failedTargets,
        cancelled: body.cancelledTargets,
        ...(body.unchargedTargets !== undefined ? { uncharged: body.unchargedTargets } : {}),
      };
      const charges = {
        chargedTargets: split.chargedTargets,
        unchargedTargets: split.unchargedTargets,
        ...(split.cachedUnits !== undefined ? { cachedUnits: split.cachedUnits } : {}),
      };
      const decided = await this.#repository.moveToSettling(body.jobId, { captured: split.captured, released: split.released, outcome, charges }, this.#now());
      if (decided) {
        await this.completeSettlement(decided);
        return { jobId: body.jobId, captured: decided.captured, released: decided.released, alreadySettled: false };
      }
      current = (await this.find(body.jobId)) ?? current;
    }
    if (current.status === 'settling') await this.completeSettlement(current);
    if (current.status === 'releasing') await this.completeRelease(current);
    return { jobId: body.jobId, captured: current.captured, released: current.released, alreadySettled: true };
  }

  /** Gives everything back for a job that was never persisted, quota included. */
  async release(jobId: string, organizationId: string, reason: string): Promise<Reservation> {
    let current = await this.find(jobId);
    if (!current || current.organizationId !== organizationId) throw errors.notFound('Reservation');
    if (current.status === 'pending') throw errors.conflict('The reservation for this job is still being taken');
    if (current.status === 'settling' || current.status === 'settled') throw errors.conflict('The job has already been settled');
    if (current.status === 'held') {
      const decided = await this.startRelease(current, reason, true);
      if (!decided) return this.release(jobId, organizationId, reason);
      current = decided;
    }
    return toReservationView(await this.completeRelease(current));
  }

  /** Moves a held or pending reservation to `releasing`; null when it was not in that state anymore. */
  async startRelease(current: ReservationDoc, reason: string, returnQuota: boolean): Promise<ReservationDoc | null> {
    return this.#repository.moveToReleasing(current, reason, returnQuota, this.#now());
  }

  /**
   * Writes the settlement's capture and release entries (each keyed by the job) and marks it
   * settled. Both entries carry the settlement's target counts, for whoever reads either; usage
   * counts them once (daily-credits.ts).
   */
  async completeSettlement(doc: ReservationDoc): Promise<ReservationDoc> {
    const { organizationId, _id: jobId } = doc;
    const charges = doc.charges ? { charges: doc.charges } : {};
    if (doc.captured > 0) {
      await this.#options.ledger.record({
        organizationId,
        key: `capture:${jobId}`,
        kind: 'capture',
        amount: doc.captured,
        reason: doc.charges?.cachedUnits
          ? `Settlement: successful targets, ${doc.charges.cachedUnits} unit(s) from the page cache at the cached price`
          : 'Settlement: successful targets',
        jobId,
        ...charges,
      });
    }
    if (doc.released > 0) {
      await this.#options.ledger.record({
        organizationId,
        key: `release:${jobId}`,
        kind: 'release',
        amount: doc.released,
        reason: doc.charges?.unchargedTargets
          ? 'Settlement: failed, blocked, cancelled or uncharged targets'
          : 'Settlement: failed, blocked or cancelled targets',
        jobId,
        ...charges,
      });
    }
    return (await this.#repository.markSettled(jobId, this.#now())) ?? doc;
  }

  /**
   * Undoes whatever a reservation took: the held credits (only if the reserve entry was written)
   * and, when asked, the monthly quota. Idempotent; safe to call again after a crash.
   */
  async completeRelease(doc: ReservationDoc): Promise<ReservationDoc> {
    const { organizationId, _id: jobId } = doc;
    const reserved = await this.#options.ledger.findByKey(`reserve:${jobId}`);
    const released = reserved ? reserved.amount : 0;
    if (reserved) {
      await this.#options.ledger.record({
        organizationId,
        key: `release:${jobId}`,
        kind: 'release',
        amount: released,
        reason: `Released: ${doc.releaseReason ?? 'job not run'}`,
        jobId,
      });
    }
    if (doc.returnQuota) await this.#options.usage.releaseJob(organizationId, doc.month, jobId, attemptOf(doc));
    return (await this.#repository.markReleased(jobId, released, this.#now())) ?? doc;
  }

  /** Reservations in `status` last touched before `cutoff` (ISO), oldest first. */
  async stale(status: ReservationState, cutoff: string, field: 'createdAt' | 'updatedAt', limit = 500): Promise<ReservationDoc[]> {
    return this.#repository.staleReservations(status, cutoff, field, limit);
  }

  /** Held reservations created before `cutoff` whose job catalog has not yet confirmed. */
  async unconfirmed(cutoff: string, limit = 200): Promise<ReservationDoc[]> {
    return this.#repository.unconfirmedHolds(cutoff, limit);
  }

  /** Catalog knows the job: it exists for good, so it is not asked again. */
  async confirmJob(jobId: string): Promise<void> {
    await this.#repository.confirmJob(jobId);
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}
