import type { JobType, Reservation, ReserveBody, SettleBody, Settlement } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import type { Accounts } from '../accounts/accounts.ts';
import { LedgerRefusal, type CreditLedger } from '../ledger/credit-ledger.ts';
import { monthKey } from '../quotas/month.ts';
import type { UsageCounters } from '../quotas/usage-counters.ts';
import { creditsPerTarget, splitSettlement } from './settlement-split.ts';

/**
 * pending → held → settling → settled, or held/pending → releasing → released. The `-ing` states
 * record the decision (the figures) before the ledger entries are written, so any later call or
 * the reconciler can finish the same decision after a crash.
 */
export type ReservationState = 'pending' | 'held' | 'settling' | 'settled' | 'releasing' | 'released';

export interface ReservationDoc {
  _id: string;
  organizationId: string;
  jobType: JobType;
  targetCount: number;
  unitsPerTarget: number;
  creditsPerTarget: number;
  credits: number;
  reason: string;
  /** The UTC month whose counters this job consumed. */
  month: string;
  status: ReservationState;
  captured: number;
  released: number;
  releaseReason?: string;
  /** Give the job back to the monthly counters when releasing (its job never existed). */
  returnQuota?: boolean;
  /** Catalog confirmed that the job exists; the reconciler stops asking. */
  jobConfirmed?: boolean;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

export function toReservationView(doc: ReservationDoc): Reservation {
  const status = doc.status === 'pending' || doc.status === 'held' ? 'held' : doc.status === 'settling' || doc.status === 'settled' ? 'settled' : 'released';
  return {
    jobId: doc._id,
    organizationId: doc.organizationId,
    credits: doc.credits,
    creditsPerTarget: doc.creditsPerTarget,
    targetCount: doc.targetCount,
    status,
    captured: doc.captured,
    released: doc.released,
    createdAt: doc.createdAt,
  };
}

export interface ReservationsOptions {
  store: DocumentStore;
  clock: Clock;
  ledger: CreditLedger;
  usage: UsageCounters;
  accounts: Accounts;
  /** After a settlement that captured credits (the referral reward hook). */
  onCaptured?: (organizationId: string) => Promise<void>;
}

/** Credit holds for jobs: reserve at create/retry, settle once when the job ends, release if it never existed. */
export class Reservations {
  readonly #reservations: Collection<ReservationDoc>;
  readonly #options: ReservationsOptions;

  constructor(options: ReservationsOptions) {
    this.#reservations = options.store.collection<ReservationDoc>('reservations');
    this.#options = options;
  }

  async init(): Promise<void> {
    await this.#reservations.ensureIndexes([
      { keys: { status: 1, createdAt: 1 }, name: 'status_age' },
      { keys: { organizationId: 1, createdAt: -1 }, name: 'organization_recent' },
    ]);
  }

  async find(jobId: string): Promise<ReservationDoc | null> {
    return this.#reservations.findOne({ _id: jobId });
  }

  /**
   * Takes the monthly quota (job + targets) and holds the credits, idempotently on the job id.
   * Order: claim the job id → quota → credits → held. A refusal at any step undoes the earlier
   * ones, so a 403 or 402 leaves nothing consumed.
   */
  async reserve(body: ReserveBody): Promise<Reservation> {
    const { organizationId, jobId } = body;
    const account = await this.#options.accounts.ensure(organizationId);
    const existing = await this.find(jobId);
    if (existing) return this.#answerRepeat(existing, organizationId);

    const perTarget = creditsPerTarget(body.jobType, body.unitsPerTarget ?? 1);
    const now = this.#options.clock.now();
    const doc: ReservationDoc = {
      _id: jobId,
      organizationId,
      jobType: body.jobType,
      targetCount: body.targetCount,
      unitsPerTarget: body.unitsPerTarget ?? 1,
      creditsPerTarget: perTarget,
      credits: perTarget * body.targetCount,
      reason: body.reason,
      month: monthKey(now),
      status: 'pending',
      captured: 0,
      released: 0,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await this.#reservations.insertOne(doc);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const raced = await this.find(jobId);
      if (raced) return this.#answerRepeat(raced, organizationId);
      throw error;
    }

    try {
      await this.#options.usage.consumeJob(organizationId, doc.month, jobId, doc.targetCount, this.#options.accounts.limitsOf(account));
    } catch (error) {
      // A 403 consumed nothing; anything else leaves the claim for the reconciler to roll back.
      if ((error as { statusCode?: number }).statusCode === 403) await this.#reservations.deleteOne({ _id: jobId, status: 'pending' });
      throw error;
    }

    try {
      await this.#options.ledger.record({ organizationId, key: `reserve:${jobId}`, kind: 'reservation', amount: doc.credits, reason: `Reservation for ${body.reason}`, jobId });
    } catch (error) {
      if (!(error instanceof LedgerRefusal)) throw error;
      await this.#options.usage.releaseJob(organizationId, doc.month, jobId);
      await this.#reservations.deleteOne({ _id: jobId, status: 'pending' });
      throw errors.insufficientCredits(doc.credits, error.balance.available);
    }

    const held = await this.#reservations.updateOne({ _id: jobId, status: 'pending' }, { $set: { status: 'held', updatedAt: this.#options.clock.now().toISOString() } });
    if (held) return toReservationView(held);
    // The reconciler gave up on this claim while we were slow: finish its roll-back, which
    // includes the credits just held, and tell the caller.
    const current = await this.find(jobId);
    if (current && (current.status === 'releasing' || current.status === 'released')) {
      await this.completeRelease(current);
      throw errors.conflict('The reservation timed out and was rolled back; create the job again');
    }
    if (!current) throw errors.conflict('The reservation was rolled back; create the job again');
    return toReservationView(current);
  }

  #answerRepeat(existing: ReservationDoc, organizationId: string): Reservation {
    if (existing.organizationId !== organizationId) throw errors.conflict('This job id is reserved by another organization');
    if (existing.status === 'pending') throw errors.conflict('A reservation for this job is being taken; retry shortly');
    return toReservationView(existing);
  }

  /** Exactly once per job: the first call decides the figures, later calls report them. */
  async settle(body: SettleBody): Promise<Settlement> {
    await this.#options.accounts.ensure(body.organizationId);
    let current = await this.find(body.jobId);
    if (!current || current.organizationId !== body.organizationId) throw errors.notFound('Reservation');
    if (current.status === 'pending') throw errors.conflict('The reservation for this job is still being taken');
    if (current.status === 'held') {
      const split = splitSettlement(current, body);
      const decided = await this.#reservations.updateOne(
        { _id: body.jobId, status: 'held' },
        {
          $set: {
            status: 'settling',
            captured: split.captured,
            released: split.released,
            outcome: { succeeded: body.succeededTargets, failed: body.failedTargets, cancelled: body.cancelledTargets },
            updatedAt: this.#options.clock.now().toISOString(),
          },
        },
      );
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
    return this.#reservations.updateOne(
      { _id: current._id, status: current.status },
      { $set: { status: 'releasing', captured: 0, released: current.credits, releaseReason: reason, returnQuota, updatedAt: this.#options.clock.now().toISOString() } },
    );
  }

  /** Writes the settlement's capture and release entries (each keyed by the job) and marks it settled. */
  async completeSettlement(doc: ReservationDoc): Promise<ReservationDoc> {
    const { organizationId, _id: jobId } = doc;
    if (doc.captured > 0) {
      await this.#options.ledger.record({ organizationId, key: `capture:${jobId}`, kind: 'capture', amount: doc.captured, reason: 'Settlement: successful targets', jobId });
    }
    if (doc.released > 0) {
      await this.#options.ledger.record({ organizationId, key: `release:${jobId}`, kind: 'release', amount: doc.released, reason: 'Settlement: failed, blocked or cancelled targets', jobId });
    }
    const settled = (await this.#reservations.updateOne({ _id: jobId, status: 'settling' }, { $set: { status: 'settled', updatedAt: this.#options.clock.now().toISOString() } })) ?? doc;
    if (doc.captured > 0 && this.#options.onCaptured) await this.#options.onCaptured(organizationId);
    return settled;
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
      await this.#options.ledger.record({ organizationId, key: `release:${jobId}`, kind: 'release', amount: released, reason: `Released: ${doc.releaseReason ?? 'job not run'}`, jobId });
    }
    if (doc.returnQuota) await this.#options.usage.releaseJob(organizationId, doc.month, jobId);
    return (
      (await this.#reservations.updateOne(
        { _id: jobId, status: { $in: ['releasing', 'released'] } },
        { $set: { status: 'released', released, updatedAt: this.#options.clock.now().toISOString() } },
      )) ?? doc
    );
  }

  /** Reservations in `status` last touched before `cutoff` (ISO), oldest first. */
  async stale(status: ReservationState, cutoff: string, field: 'createdAt' | 'updatedAt', limit = 500): Promise<ReservationDoc[]> {
    return this.#reservations.find({ status, [field]: { $lt: cutoff } }, { sort: { [field]: 1 }, limit });
  }

  /** Held reservations created before `cutoff` whose job catalog has not yet confirmed. */
  async unconfirmed(cutoff: string, limit = 200): Promise<ReservationDoc[]> {
    return this.#reservations.find({ status: 'held', createdAt: { $lt: cutoff }, jobConfirmed: { $ne: true } }, { sort: { createdAt: 1 }, limit });
  }

  /** Catalog knows the job: it exists for good, so it is not asked again. */
  async confirmJob(jobId: string): Promise<void> {
    await this.#reservations.updateOne({ _id: jobId }, { $set: { jobConfirmed: true } });
  }
}
