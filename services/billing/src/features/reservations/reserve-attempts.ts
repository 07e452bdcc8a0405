import { randomUUID } from 'node:crypto';
import type { Reservation, ReserveBody, UsageLimits } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import type { Accounts } from '../accounts/index.ts';
import { LedgerRefusal, type CreditLedger } from '../ledger/index.ts';
import { attemptNumber, CountSuperseded, LEGACY_ATTEMPT, monthKey, type UsageCounters } from '../quotas/index.ts';
import type { BillingResources } from '../shared/index.ts';
import { isRefused, type AttemptFields, type ReservationDoc, type ReservationRepository } from './reservation-repository.ts';
import { toReservationView } from './reservation-view.ts';
import { creditsPerTarget } from './settlement-split.ts';

/** Claims from before attempts existed are attempt `legacy`, like the quota marks adopted from them. */
export const attemptOf = (claim: ReservationDoc): string => claim.attempt ?? LEGACY_ATTEMPT;

/** What a driver needs to answer from a claim that moved: the limits, and how deep it already is. */
interface Answering {
  limits: UsageLimits;
  depth: number;
}

export interface ReserveAttemptsOptions {
  repository: ReservationRepository;
  ledger: CreditLedger;
  usage: UsageCounters;
  accounts: Accounts;
  /** Finishes a roll-back the reconciler (or a release) started. */
  completeRelease: (doc: ReservationDoc) => Promise<ReservationDoc>;
}

/**
 * Reserving, idempotent end to end. Steps: claim the job id (`pending`, with a fresh attempt
 * token) → count the monthly quota (usage mark of the attempt) → hold the credits (ledger
 * `reserve:<jobId>`, tagged with the attempt) → `held`. Each step is idempotent on its own record,
 * so any number of callers can drive the same attempt: a repeat that finds the claim `pending`
 * (first call in flight, timed out or dead) drives the same steps to `held` and answers like the
 * first call, never a 409.
 *
 * A refusal (403 quota, 402 credits) is recorded on the claim (`refused`, with the answer) before
 * the attempt's steps are undone, so racing drivers of that attempt answer the same refusal, and a
 * driver whose step landed after the refusal (credits freed meanwhile) finds the claim refused and
 * undoes that step itself. A later reserve of the same job id reopens the refused claim under a
 * new attempt; records carry the attempt, so nothing of a dead attempt is mistaken for the new
 * one's. The reconciler undoes refused attempts once more after a minute (then `void`).
 */
export class ReserveAttempts {
  readonly #repository: ReservationRepository;
  readonly #clock: Clock;
  readonly #options: ReserveAttemptsOptions;

  constructor(resources: BillingResources, options: ReserveAttemptsOptions) {
    this.#repository = options.repository;
    this.#clock = resources.clock;
    this.#options = options;
  }

  /** Reserves for a job, or answers like the call that reserved it first (see the class comment). */
  async reserve(body: ReserveBody): Promise<Reservation> {
    const account = await this.#options.accounts.ensure(body.organizationId);
    const limits = this.#options.accounts.limitsOf(account);
    for (let round = 0; round < 5; round += 1) {
      const claim = await this.#claim(body);
      if (!claim) continue;
      if (claim.organizationId !== body.organizationId) throw errors.conflict('This job id is reserved by another organization');
      if (claim.status !== 'pending') return toReservationView(claim);
      return this.#drive(claim, limits, 0);
    }
    throw errors.unavailable('The reservation is contended, try again');
  }

  /** The claim for this job id: new, existing, or a refused one reopened for a new attempt (null: look again). */
  async #claim(body: ReserveBody): Promise<ReservationDoc | null> {
    const perTarget = creditsPerTarget(body.jobType, body.unitsPerTarget ?? 1);
    const now = this.#clock.now();
    const fresh: AttemptFields = {
      organizationId: body.organizationId,
      attempt: `1.${randomUUID()}`,
      jobType: body.jobType,
      targetCount: body.targetCount,
      unitsPerTarget: body.unitsPerTarget ?? 1,
      creditsPerTarget: perTarget,
      credits: perTarget * body.targetCount,
      reason: body.reason,
      month: monthKey(now),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const { claim, created } = await this.#repository.takeReservation({ _id: body.jobId, status: 'pending', captured: 0, released: 0, ...fresh });
    // A refused claim is no reservation: the job id is free again, for any organization.
    if (created || !isRefused(claim)) return claim;
    return this.#repository.reopenRefused(claim, { ...fresh, attempt: `${attemptNumber(attemptOf(claim)) + 1}.${randomUUID()}` });
  }

  /** Drives one attempt to `held`; every step is safe to run again and concurrently. */
  async #drive(claim: ReservationDoc, limits: UsageLimits, depth: number): Promise<Reservation> {
    const answer = { limits, depth };
    const { organizationId, _id: jobId } = claim;
    try {
      await this.#countJob(claim, limits);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 403) return this.#refuse(claim, error, answer);
      if (error instanceof CountSuperseded) return this.#outcome(claim, answer);
      throw error; // the claim stays pending: a repeat or the reconciler finishes it
    }
    let entry;
    try {
      ({ entry } = await this.#options.ledger.record({
        organizationId,
        key: `reserve:${jobId}`,
        kind: 'reservation',
        amount: claim.credits,
        reason: `Reservation for ${claim.reason}`,
        jobId,
        ...(claim.attempt ? { attempt: claim.attempt } : {}),
      }));
    } catch (error) {
      if (error instanceof LedgerRefusal) return this.#refuse(claim, errors.insufficientCredits(claim.credits, error.balance.available), answer);
      throw error;
    }
    // The key was taken by an earlier, refused attempt at this job id: it cannot hold credits again.
    if ((entry.attempt ?? LEGACY_ATTEMPT) !== attemptOf(claim))
      return this.#refuse(claim, errors.conflict('This job id was reserved before and rolled back; create the job again'), answer);
    const held = await this.#repository.moveToHeld(claim, this.#now());
    return held ? toReservationView(held) : this.#outcome(claim, answer);
  }

  /** Counts the attempt's job; a count left by a dead attempt of the same job id is given back first. */
  async #countJob(claim: ReservationDoc, limits: UsageLimits): Promise<void> {
    const { organizationId, _id: jobId, month } = claim;
    for (let round = 0; round < 3; round += 1) {
      try {
        await this.#options.usage.consumeJob(organizationId, month, jobId, claim.targetCount, limits, attemptOf(claim));
        return;
      } catch (error) {
        // An older attempt's count is a dead one (the claim has moved past it): give it back.
        if (!(error instanceof CountSuperseded) || attemptNumber(error.markAttempt) >= attemptNumber(attemptOf(claim))) throw error;
        await this.#options.usage.releaseJob(organizationId, month, jobId, error.markAttempt);
      }
    }
    throw errors.unavailable('The monthly quota of this job is contended, try again');
  }

  /** Records the refusal on the claim (first decision wins), undoes the attempt, and answers it. */
  async #refuse(claim: ReservationDoc, error: AppError, answer: Answering): Promise<Reservation> {
    const refused = await this.#repository.markRefused(
      claim,
      { statusCode: error.statusCode, code: error.code, message: error.message, details: error.details },
      this.#now(),
    );
    if (!refused) return this.#outcome(claim, answer);
    await this.#undoAttempt(refused);
    throw error;
  }

  /** The claim moved while this call drove it: answer from where it is now. */
  async #outcome(claim: ReservationDoc, answer: Answering): Promise<Reservation> {
    let current = await this.#repository.findReservation(claim._id);
    if (!current || attemptOf(current) !== attemptOf(claim)) {
      // This call's attempt is dead (refused and retried, or forgotten): give back what it took,
      // then answer like a repeat of the claim that is there now.
      await this.#undoAttempt(claim);
      current = await this.#repository.findReservation(claim._id);
      if (!current || current.organizationId !== claim.organizationId) throw errors.conflict('The reservation was rolled back; create the job again');
      if (current.status === 'pending') {
        if (answer.depth >= 3) throw errors.unavailable('The reservation is contended; retry shortly');
        return this.#drive(current, answer.limits, answer.depth + 1);
      }
    }
    switch (current.status) {
      case 'refused':
      case 'void': {
        await this.#undoAttempt(current);
        const refusal = current.refusal;
        throw refusal ? new AppError(refusal.code, refusal.message, refusal.statusCode, refusal.details) : errors.conflict('The reservation was refused');
      }
      case 'releasing':
      case 'released':
        // The reconciler gave up on this claim while it was slow: finish its roll-back, which
        // includes anything this call just took.
        await this.#options.completeRelease(current);
        throw errors.conflict('The reservation timed out and was rolled back; create the job again');
      case 'pending':
        throw errors.unavailable('The reservation is still being taken; retry shortly');
      default:
        return toReservationView(current);
    }
  }

  /** Gives back what one attempt took: its quota mark, and any hold no live attempt owns. Idempotent. */
  async #undoAttempt(claim: ReservationDoc): Promise<void> {
    await this.#options.usage.releaseJob(claim.organizationId, claim.month, claim._id, attemptOf(claim));
    await this.#releaseDeadHold(claim._id);
  }

  /**
   * Releases the job's `reserve:` entry unless the claim's current attempt owns it (or is rolling
   * it back itself). The entry is read before the claim: attempts only move forward, so an
   * attempt the claim has left by then is dead for good.
   */
  async #releaseDeadHold(jobId: string): Promise<void> {
    const reserved = await this.#options.ledger.findByKey(`reserve:${jobId}`);
    if (!reserved) return;
    const current = await this.#repository.findReservation(jobId);
    if (current && attemptOf(current) === (reserved.attempt ?? LEGACY_ATTEMPT) && !isRefused(current)) return;
    await this.#options.ledger.record({
      organizationId: reserved.organizationId,
      key: `release:${jobId}`,
      kind: 'release',
      amount: reserved.amount,
      reason: 'Released: reservation refused',
      jobId,
    });
  }

  /** The reconciler's sweep: undo a refused attempt once more (a racing driver may have held credits), then close it. */
  async closeRefused(claim: ReservationDoc): Promise<boolean> {
    await this.#undoAttempt(claim);
    return this.#repository.markVoid(claim, this.#now());
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}
