import type { JobType, TargetCharges } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type DocumentStore, type Filter } from '@crawl/storage';

/**
 * pending → held → settling → settled, or held/pending → releasing → released, or pending →
 * refused → void (402/403: nothing stays consumed; `void` once the reconciler has checked the
 * undo). The `-ing` states record the decision (the figures) before the ledger entries are
 * written, so any later call or the reconciler can finish it. A refused or void claim is no
 * reservation; it only keeps the attempt count, so that a later try at the job id is numbered
 * after it.
 */
export type ReservationState = 'pending' | 'held' | 'settling' | 'settled' | 'releasing' | 'released' | 'refused' | 'void';

export const isRefused = (claim: Pick<ReservationDoc, 'status'>): boolean => claim.status === 'refused' || claim.status === 'void';

/** What a refused attempt answered, so that its repeats answer the same. */
export interface Refusal {
  statusCode: number;
  code: string;
  message: string;
  details: unknown[];
}

export interface ReservationDoc {
  _id: string;
  organizationId: string;
  /**
   * Which try at this job id the claim is (a random token; absent on claims made before attempts
   * existed). The quota mark and the `reserve:` ledger entry carry it, so the steps of a refused
   * attempt can never be mistaken for those of a later one.
   */
  attempt?: string;
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
  refusal?: Refusal;
  /** The counts the settlement was asked with (`succeeded`: the successes to charge). */
  outcome?: { succeeded: number; failed: number; cancelled: number; uncharged?: number };
  /** The targets the settlement charged and delivered without charge (absent on settlements from before). */
  charges?: TargetCharges;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

/** The claim fields a new attempt sets. */
export type AttemptFields = Pick<
  ReservationDoc,
  'organizationId' | 'attempt' | 'jobType' | 'targetCount' | 'unitsPerTarget' | 'creditsPerTarget' | 'credits' | 'reason' | 'month' | 'createdAt' | 'updatedAt'
>;

/** Storage of reservations (`_id` = job id): every state change is one conditional update. */
export class ReservationRepository {
  readonly #reservations: Collection<ReservationDoc>;

  constructor(store: DocumentStore) {
    this.#reservations = store.collection<ReservationDoc>('reservations');
  }

  async init(): Promise<void> {
    await this.#reservations.ensureIndexes([
      { keys: { status: 1, createdAt: 1 }, name: 'status_age' },
      { keys: { status: 1, updatedAt: 1 }, name: 'status_touched' },
    ]);
  }

  findReservation(jobId: string): Promise<ReservationDoc | null> {
    return this.#reservations.findOne({ _id: jobId });
  }

  /** Claims the job id. @returns the new claim (`created`), or the claim already there. */
  async takeReservation(doc: ReservationDoc): Promise<{ claim: ReservationDoc; created: boolean }> {
    for (;;) {
      try {
        return { claim: await this.#reservations.insertOne(doc), created: true };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const existing = await this.findReservation(doc._id);
      if (existing) return { claim: existing, created: false };
      // Deleted between the two calls (a refused claim swept): claim again.
    }
  }

  /** refused/void → pending under a new attempt. @returns null when the claim was not that refused attempt anymore. */
  reopenRefused(refused: ReservationDoc, fresh: AttemptFields): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne(
      { _id: refused._id, status: { $in: ['refused', 'void'] }, ...attemptOf(refused) },
      { $set: { ...fresh, status: 'pending', captured: 0, released: 0 }, $unset: { refusal: true, releaseReason: true, returnQuota: true } },
    );
  }

  /** pending → held, for that attempt only. */
  moveToHeld(claim: ReservationDoc, now: string): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne({ _id: claim._id, status: 'pending', ...attemptOf(claim) }, { $set: { status: 'held', updatedAt: now } });
  }

  /** pending → refused, for that attempt only. */
  markRefused(claim: ReservationDoc, refusal: Refusal, now: string): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne({ _id: claim._id, status: 'pending', ...attemptOf(claim) }, { $set: { status: 'refused', refusal, updatedAt: now } });
  }

  /** refused → void: the reconciler has undone the attempt once more, it need not look again. */
  async markVoid(claim: ReservationDoc, now: string): Promise<boolean> {
    return (
      (await this.#reservations.updateOne({ _id: claim._id, status: 'refused', ...attemptOf(claim) }, { $set: { status: 'void', updatedAt: now } })) !== null
    );
  }

  /** held → settling with the figures decided; null when it was not held anymore (someone decided first). */
  moveToSettling(
    jobId: string,
    figures: { captured: number; released: number; outcome: NonNullable<ReservationDoc['outcome']>; charges: TargetCharges },
    now: string,
  ): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne({ _id: jobId, status: 'held' }, { $set: { status: 'settling', ...figures, updatedAt: now } });
  }

  markSettled(jobId: string, now: string): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne({ _id: jobId, status: 'settling' }, { $set: { status: 'settled', updatedAt: now } });
  }

  /** held or pending (as read) → releasing with everything to give back; null when it moved meanwhile. */
  moveToReleasing(current: ReservationDoc, reason: string, returnQuota: boolean, now: string): Promise<ReservationDoc | null> {
    if (current.status !== 'held' && current.status !== 'pending') return Promise.resolve(null);
    return this.#reservations.updateOne(
      { _id: current._id, status: current.status, ...attemptOf(current) },
      { $set: { status: 'releasing', captured: 0, released: current.credits, releaseReason: reason, returnQuota, updatedAt: now } },
    );
  }

  /** releasing → released with what was actually given back (also corrects a released claim's figure). */
  markReleased(jobId: string, released: number, now: string): Promise<ReservationDoc | null> {
    return this.#reservations.updateOne({ _id: jobId, status: { $in: ['releasing', 'released'] } }, { $set: { status: 'released', released, updatedAt: now } });
  }

  /** Reservations in `status` last touched (or created) before `cutoff`, oldest first. */
  staleReservations(status: ReservationState, cutoff: string, field: 'createdAt' | 'updatedAt', limit: number): Promise<ReservationDoc[]> {
    return this.#reservations.find({ status, [field]: { $lt: cutoff } }, { sort: { [field]: 1 }, limit });
  }

  /** Held reservations created before `cutoff` whose job catalog has not yet confirmed. */
  unconfirmedHolds(cutoff: string, limit: number): Promise<ReservationDoc[]> {
    return this.#reservations.find({ status: 'held', createdAt: { $lt: cutoff }, jobConfirmed: { $ne: true } }, { sort: { createdAt: 1 }, limit });
  }

  async confirmJob(jobId: string): Promise<void> {
    await this.#reservations.updateOne({ _id: jobId }, { $set: { jobConfirmed: true } });
  }
}

/** Claims made before attempts existed have none: they match on its absence. */
function attemptOf(claim: ReservationDoc): Filter {
  return { attempt: claim.attempt === undefined ? { $exists: false } : claim.attempt };
}
