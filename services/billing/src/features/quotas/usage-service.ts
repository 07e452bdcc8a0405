import type { UsageLimits, UsageUsed } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { jobQuotaProblem } from './limits.ts';
import { attemptNumber, inflightOf, jobIdOfKey, markId, type CountersDoc, type UsageMarkDoc, type UsageRepository } from './usage-repository.ts';
import { backOff, type BillingResources } from '../shared/index.ts';

/** The problem recorded on a count that was called off rather than refused by a limit. */
export const CANCELLED = 'cancelled';

/**
 * The count this call was about is no longer in play: its attempt's count was cancelled or given
 * back, or the job counts under another attempt. The caller answers from its reservation.
 */
export class CountSuperseded extends Error {
  /** The attempt the job's mark belongs to (the caller's own, or another one). */
  readonly markAttempt: string;
  constructor(jobId: string, markAttempt: string) {
    super(`The monthly count of job ${jobId} belongs to another attempt or was given back`);
    this.name = 'CountSuperseded';
    this.markAttempt = markAttempt;
  }
}

function usedOf(doc: CountersDoc | null): UsageUsed {
  return { jobsThisMonth: doc?.jobs ?? 0, targetsThisMonth: doc?.targets ?? 0, exportsThisMonth: doc?.exports ?? 0 };
}

const inProgress = (mark: UsageMarkDoc) => mark.state === 'counting' || mark.state === 'releasing';

/** Each lost race means another writer made progress; this only bounds pathological contention. */
const MAX_ATTEMPTS = 200;

type Step<T> = { done: true; value: T } | { done: false };
const AGAIN = { done: false } as const;
const done = <T>(value: T): Step<T> => ({ done: true, value });

/**
 * Monthly counters (one small document per organization and UTC month) and per-job usage marks
 * (one record per job and month), with no multi-document transaction.
 *
 * Counting a job for reservation attempt `a` (the operation's token):
 * 1. insert the mark `counting(a)` (`_id` = org:month:job, so a repeat finds it);
 * 2. ONE conditional `$inc` on the counters: both limits in the filter, and the same update sets
 *    `inflight.<job> = {op: a, applied: true}`. A job that does not fit gets the entry with
 *    `applied: false` instead, written only while it still does not fit;
 * 3. mark `counting(a)` → `counted` (or `refused`), as the entry says;
 * 4. `$unset` the entry, `$inc` the fence of the job's bucket (one of 32, by hash of the job id).
 * Giving the job back is the same with operation `release:a`: mark `counted` → `releasing`,
 * `$inc` −1 with its entry, mark → `released`, unset. A reservation rolled back while its count is
 * in progress calls it off: an `applied: false` entry, mark → `refused` (problem `cancelled`).
 *
 * Why exactly once. The entry is written by the very update that moves the counters, so until the
 * mark has caught up, the counters themselves say whether the operation was applied. Writers read
 * the counters, then the mark, and write step 2 only if the job has no entry and its bucket's
 * fence is what they read. An entry is cleared only once the mark has left its operation, and a
 * mark never returns to an operation it left (tokens are per attempt; a new count needs a later
 * attempt). A second step-2 write of one operation would need a clear in between; that clear
 * moved the fence after the writer read it (the writer saw the mark still in the operation, so it
 * read before the clear), so its write does not match. Without the fence, a writer that saw
 * `counting(a)`, stalled, and resumed after another writer finished steps 2–4 would count again.
 * Refusals and cancellations are entries too, so no late writer counts a job refused or called off.
 *
 * Crash points (the next call for the job, a roll-back, or the reconciler's `resolveInflight`
 * finishes; each step is conditional, so finishing twice changes nothing):
 * - after 1: nothing counted; a repeat continues at 2, a roll-back calls the count off;
 * - after 2: the entry holds the outcome; the mark is moved to it (3), then 4;
 * - after 3: the entry is a leftover (its mark left the operation) and is just cleared;
 * - a mark is never moved to a new operation while the job has an entry (cleared first).
 * `inflight` holds operations between their writes only, never history.
 *
 * Limit safety: step 2 is the one conditional update that checks and consumes, so racing counts
 * never pass a limit. Documents with a legacy `jobMarks` map are adopted on first touch: each
 * entry becomes a `counted` mark of attempt LEGACY_ATTEMPT, then the map is dropped.
 */
export class UsageCounters {
  readonly #repository: UsageRepository;
  readonly #clock: Clock;

  constructor(resources: BillingResources, options: { repository: UsageRepository }) {
    this.#repository = options.repository;
    this.#clock = resources.clock;
  }

  async used(organizationId: string, month: string): Promise<UsageUsed> {
    return usedOf(await this.#repository.findCounters(organizationId, month));
  }

  /**
   * Counts one job and its targets for reservation attempt `attempt`, idempotently.
   * @returns false when this attempt's count was already done.
   * @throws FORBIDDEN (403) when either limit would be exceeded; nothing is consumed then.
   * @throws CountSuperseded when this attempt's count was cancelled or given back, or the job
   * counts under another attempt.
   */
  async consumeJob(organizationId: string, month: string, jobId: string, targets: number, limits: UsageLimits, attempt: string): Promise<boolean> {
    return this.#loop(async () => {
      const counters = await this.#adopted(await this.#repository.openCounters(organizationId, month, this.#now()));
      // Insert first: a new job (the usual case) needs no lookup; a taken id means the mark exists.
      const mark =
        (await this.#repository.insertMark({
          _id: markId(organizationId, month, jobId),
          organizationId,
          month,
          jobId,
          attempt,
          op: attempt,
          state: 'counting',
          targets,
          updatedAt: this.#now(),
        })) ?? (await this.#repository.findMark(organizationId, month, jobId));
      if (!mark) return AGAIN;
      if (await this.#settleEntry(counters, mark)) return AGAIN;
      if (mark.attempt !== attempt) {
        // Only a later attempt may count a job whose count is over (refused or given back).
        const over = mark.state === 'refused' || mark.state === 'released';
        if (!over || attemptNumber(attempt) <= attemptNumber(mark.attempt)) throw new CountSuperseded(jobId, mark.attempt);
        await this.#repository.restartJobCount(mark, attempt, targets, this.#now());
        return AGAIN;
      }
      if (mark.state === 'counted') return done(false);
      if (mark.state === 'refused')
        throw mark.problem === CANCELLED ? new CountSuperseded(jobId, mark.attempt) : errors.quotaExceeded(mark.problem ?? 'Monthly limit reached');
      if (mark.state !== 'counting') throw new CountSuperseded(jobId, mark.attempt);
      if (await this.#repository.applyJobCount(counters, mark, limits, this.#now())) {
        await this.#finish(counters._id, mark, true);
        return done(true);
      }
      const fresh = await this.#repository.findCounters(organizationId, month);
      const problem = fresh && jobQuotaProblem(limits, usedOf(fresh), mark.targets);
      if (fresh && problem && (await this.#repository.recordCountRefused(counters, mark, limits, problem, this.#now()))) {
        await this.#finish(counters._id, mark, false, problem);
        throw errors.quotaExceeded(problem);
      }
      return AGAIN; // the counters moved (another job, or this one by another writer): look again
    });
  }

  /**
   * Gives back the job counted by `attempt` (its job was never created), exactly once; a count
   * still in progress is called off. @returns false when that attempt had nothing counted.
   */
  async releaseJob(organizationId: string, month: string, jobId: string, attempt: string): Promise<boolean> {
    return this.#loop(async () => {
      const found = await this.#repository.findCounters(organizationId, month);
      if (!found) return done(false);
      const current = await this.#adopted(found);
      const mark = await this.#repository.findMark(organizationId, month, jobId);
      if (!mark || mark.attempt !== attempt) return done(false);
      if (await this.#settleEntry(current, mark)) return AGAIN;
      switch (mark.state) {
        case 'refused':
        case 'released':
          return done(false);
        case 'counting':
          if (await this.#repository.recordCountCancelled(current, mark, CANCELLED, this.#now())) {
            await this.#finish(current._id, mark, false, CANCELLED);
            return done(false);
          }
          return AGAIN;
        case 'counted':
          await this.#repository.markJobReleasing(mark, `release:${attempt}`, this.#now());
          return AGAIN;
        case 'releasing':
          if (await this.#repository.applyJobRelease(current, mark, this.#now())) {
            await this.#finish(current._id, mark, true);
            return done(true);
          }
          return AGAIN;
      }
    });
  }

  /** Counts one export. @throws FORBIDDEN (403) when `exportsPerMonth` is used up. */
  async consumeExport(organizationId: string, month: string, limits: UsageLimits): Promise<UsageUsed> {
    await this.#repository.openCounters(organizationId, month, this.#now());
    const updated = await this.#repository.consumeExport(organizationId, month, limits.exportsPerMonth, this.#now());
    if (!updated) throw errors.quotaExceeded(`Monthly export limit reached (${limits.exportsPerMonth} exports per month)`);
    return usedOf(updated);
  }

  /**
   * Finishes operations interrupted between their writes (entries older than `cutoff`): moves
   * each mark to its entry's outcome and clears the entry. @returns how many entries were cleared.
   */
  async resolveInflight(cutoff: string): Promise<number> {
    let cleared = 0;
    for (const counters of await this.#repository.countersWithInflight(100)) {
      for (const [key, entry] of Object.entries(counters.inflight ?? {})) {
        if (entry.at >= cutoff) continue;
        const mark = await this.#repository.findMark(counters.organizationId, counters.month, jobIdOfKey(key));
        if (mark && (await this.#settleEntry(counters, mark))) cleared += 1;
      }
    }
    return cleared;
  }

  /**
   * Brings the job's mark in line with an entry on the counters and clears the entry.
   * @returns whether there was an entry (the caller reads again).
   */
  async #settleEntry(counters: CountersDoc, mark: UsageMarkDoc): Promise<boolean> {
    const entry = inflightOf(counters, mark.jobId);
    if (!entry) return false;
    if (entry.op === mark.op && inProgress(mark)) {
      await this.#finish(counters._id, mark, entry.applied, entry.problem);
    } else {
      // The mark already holds this outcome (it left the operation): only the entry is left over.
      await this.#repository.clearInflight(counters._id, mark.jobId, entry.op);
    }
    return true;
  }

  /** Steps 3 and 4: the mark takes the outcome, then the entry goes. */
  async #finish(counterDocId: string, mark: UsageMarkDoc, applied: boolean, problem?: string): Promise<void> {
    const now = this.#now();
    if (mark.state === 'releasing') await this.#repository.markJobReleased(mark, now);
    else if (applied) await this.#repository.markJobCounted(mark, now);
    else await this.#repository.markJobRefused(mark, problem ?? 'Monthly limit reached', now);
    await this.#repository.clearInflight(counterDocId, mark.jobId, mark.op);
  }

  /** The counters to write against, with legacy job marks adopted first. */
  async #adopted(counters: CountersDoc): Promise<CountersDoc> {
    return counters.jobMarks === undefined ? counters : this.#repository.adoptLegacyMarks(counters, this.#now());
  }

  async #loop<T>(step: () => Promise<Step<T>>): Promise<T> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const result = await step();
      if (result.done) return result.value;
      if (attempt > 0) await backOff(attempt - 1);
    }
    throw errors.unavailable('Usage counters are too busy, try again');
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}
