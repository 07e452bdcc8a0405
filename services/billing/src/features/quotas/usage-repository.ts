import type { UsageLimits } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type DocumentStore, type Filter } from '@crawl/storage';

/**
 * The counters of one organization and UTC month (`_id` = `<org>:<month>`). Its size does not
 * grow with the number of jobs: per-job facts live in `usage_marks`, and `inflight` holds only
 * the operations between their two writes (see usage-service.ts for the protocol).
 */
export interface CountersDoc {
  _id: string;
  organizationId: string;
  month: string;
  jobs: number;
  targets: number;
  exports: number;
  /** Operations applied (or refused) here whose mark has not caught up yet, by job key. */
  inflight?: Record<string, InflightOp>;
  /** How many entries `inflight` holds: the reconciler's indexed way to find leftovers. */
  inflightCount?: number;
  /** Per bucket of job keys, how often an `inflight` entry was cleared: fences stale writers. */
  fences?: Record<string, number>;
  /** Before usage marks: encoded job id → targets. Adopted as marks and removed on first touch. */
  jobMarks?: Record<string, number>;
  updatedAt: string;
  [key: string]: unknown;
}

/** The outcome of one operation, recorded on the counters by the same update that applied it. */
export interface InflightOp {
  /** The operation's token: the mark's `op` while it runs. */
  op: string;
  /** False for a refusal (quota) or a cancellation: the counters did not move. */
  applied: boolean;
  problem?: string;
  at: string;
}

export type MarkState = 'counting' | 'counted' | 'refused' | 'releasing' | 'released';

/** Whether one job counts in one month's counters (`_id` = `<org>:<month>:<jobId>`). */
export interface UsageMarkDoc {
  _id: string;
  organizationId: string;
  month: string;
  jobId: string;
  /** The reservation attempt whose count this is. */
  attempt: string;
  /** The operation running or last finished: the attempt (count) or `release:<attempt>`. */
  op: string;
  state: MarkState;
  targets: number;
  /** Why a count was refused (the 403 message), or CANCELLED. */
  problem?: string;
  updatedAt: string;
  [key: string]: unknown;
}

/** Marks adopted from a `jobMarks` map: counted by code that had no attempts. */
export const LEGACY_ATTEMPT = 'legacy';

/**
 * Attempt tokens are `<n>.<random>`, n growing by one each time a refused claim is tried again,
 * so any two attempts at one job id are ordered (LEGACY_ATTEMPT is 0).
 */
export function attemptNumber(attempt: string): number {
  const n = Number.parseInt(attempt, 10);
  return Number.isSafeInteger(n) ? n : 0;
}
const FENCE_BUCKETS = 32;

export function countersId(organizationId: string, month: string): string {
  return `${organizationId}:${month}`;
}

export function markId(organizationId: string, month: string, jobId: string): string {
  return `${organizationId}:${month}:${jobId}`;
}

/** Job ids may hold `.` or `$`, which a field name may not; the `j` keeps a key from being all digits. */
export function jobKey(jobId: string): string {
  return `j${Buffer.from(jobId, 'utf8').toString('base64url')}`;
}

export function jobIdOfKey(key: string): string {
  return Buffer.from(key.slice(1), 'base64url').toString('utf8');
}

/** The fence bucket of a job: clearing one job's entry only disturbs writers of its bucket. */
function fenceOf(jobId: string): string {
  let hash = 0x811c9dc5;
  for (const char of jobId) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193) >>> 0;
  return `b${hash % FENCE_BUCKETS}`;
}

export function inflightOf(counters: CountersDoc, jobId: string): InflightOp | undefined {
  return counters.inflight?.[jobKey(jobId)];
}

/** The filter part that holds a writer to the counters as it read them: no entry for the job, same fence. */
function unchangedFor(counters: CountersDoc, jobId: string): Filter {
  const fence = counters.fences?.[fenceOf(jobId)];
  return {
    _id: counters._id,
    [`inflight.${jobKey(jobId)}`]: { $exists: false },
    [`fences.${fenceOf(jobId)}`]: fence === undefined ? { $exists: false } : fence,
  };
}

/** Storage of the monthly counters and the per-job usage marks. */
export class UsageRepository {
  readonly #counters: Collection<CountersDoc>;
  readonly #marks: Collection<UsageMarkDoc>;

  constructor(store: DocumentStore) {
    this.#counters = store.collection<CountersDoc>('usage');
    this.#marks = store.collection<UsageMarkDoc>('usage_marks');
  }

  async init(): Promise<void> {
    await this.#counters.ensureIndexes([
      { keys: { organizationId: 1, month: 1 }, name: 'organization_month' },
      { keys: { inflightCount: 1 }, name: 'inflight' },
    ]);
  }

  findCounters(organizationId: string, month: string): Promise<CountersDoc | null> {
    return this.#counters.findOne({ _id: countersId(organizationId, month) });
  }

  /** The month's counters, created at zero when missing; safe to race. */
  async openCounters(organizationId: string, month: string, now: string): Promise<CountersDoc> {
    const found = await this.findCounters(organizationId, month);
    if (found) return found;
    try {
      const created = await this.#counters.updateOne(
        { _id: countersId(organizationId, month) },
        { $setOnInsert: { organizationId, month, jobs: 0, targets: 0, exports: 0, updatedAt: now } },
        { upsert: true },
      );
      if (created) return created;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const raced = await this.findCounters(organizationId, month);
    if (!raced) throw new Error(`usage counters ${countersId(organizationId, month)} vanished`);
    return raced;
  }

  /**
   * Turns a legacy `jobMarks` map into counted marks, then drops the map. Marks first: whoever
   * reads the counters without the map knows every legacy mark exists. Safe to race and to
   * repeat after a crash (an existing mark is left alone). @returns the counters without the map.
   */
  async adoptLegacyMarks(counters: CountersDoc, now: string): Promise<CountersDoc> {
    if (counters.jobMarks === undefined) return counters;
    const marks = Object.entries(counters.jobMarks).map(([key, targets]): UsageMarkDoc => {
      const jobId = Buffer.from(key, 'base64url').toString('utf8');
      const { organizationId, month } = counters;
      return {
        _id: markId(organizationId, month, jobId),
        organizationId,
        month,
        jobId,
        attempt: LEGACY_ATTEMPT,
        op: LEGACY_ATTEMPT,
        state: 'counted',
        targets,
        updatedAt: now,
      };
    });
    try {
      await this.#marks.insertMany(marks);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Some were adopted before (a racing or crashed adoption): insert the rest one by one.
      for (const mark of marks) await this.insertMark(mark);
    }
    const dropped = await this.#counters.updateOne({ _id: counters._id, jobMarks: { $exists: true } }, { $unset: { jobMarks: true } });
    return dropped ?? (await this.#counters.findOne({ _id: counters._id })) ?? counters;
  }

  findMark(organizationId: string, month: string, jobId: string): Promise<UsageMarkDoc | null> {
    return this.#marks.findOne({ _id: markId(organizationId, month, jobId) });
  }

  /** @returns the mark, or null when the job already has one (nothing written). */
  async insertMark(mark: UsageMarkDoc): Promise<UsageMarkDoc | null> {
    try {
      return await this.#marks.insertOne(mark);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  /**
   * The one conditional update that checks both limits and counts the job, recording the outcome
   * under the job's key. Matches only if the counters are as read (no entry for the job, same
   * fence) and the job fits. @returns false when it did not match (nothing written).
   */
  async applyJobCount(counters: CountersDoc, mark: UsageMarkDoc, limits: UsageLimits, now: string): Promise<boolean> {
    const updated = await this.#counters.updateOne(
      { ...unchangedFor(counters, mark.jobId), jobs: { $lte: limits.jobsPerMonth - 1 }, targets: { $lte: limits.targetsPerMonth - mark.targets } },
      {
        $inc: { jobs: 1, targets: mark.targets, inflightCount: 1 },
        $set: { [`inflight.${jobKey(mark.jobId)}`]: { op: mark.op, applied: true, at: now }, updatedAt: now },
      },
    );
    return updated !== null;
  }

  /** Records a refused count, only while the job still does not fit, so no writer can count it later. */
  async recordCountRefused(counters: CountersDoc, mark: UsageMarkDoc, limits: UsageLimits, problem: string, now: string): Promise<boolean> {
    const updated = await this.#counters.updateOne(
      { ...unchangedFor(counters, mark.jobId), $or: [{ jobs: { $gt: limits.jobsPerMonth - 1 } }, { targets: { $gt: limits.targetsPerMonth - mark.targets } }] },
      { $inc: { inflightCount: 1 }, $set: { [`inflight.${jobKey(mark.jobId)}`]: { op: mark.op, applied: false, problem, at: now }, updatedAt: now } },
    );
    return updated !== null;
  }

  /** Records that a count in progress is called off (its reservation is rolled back). */
  async recordCountCancelled(counters: CountersDoc, mark: UsageMarkDoc, problem: string, now: string): Promise<boolean> {
    const updated = await this.#counters.updateOne(unchangedFor(counters, mark.jobId), {
      $inc: { inflightCount: 1 },
      $set: { [`inflight.${jobKey(mark.jobId)}`]: { op: mark.op, applied: false, problem, at: now }, updatedAt: now },
    });
    return updated !== null;
  }

  /** Gives a counted job back, recording the outcome under the job's key (the counters as read only). */
  async applyJobRelease(counters: CountersDoc, mark: UsageMarkDoc, now: string): Promise<boolean> {
    const updated = await this.#counters.updateOne(unchangedFor(counters, mark.jobId), {
      $inc: { jobs: -1, targets: -mark.targets, inflightCount: 1 },
      $set: { [`inflight.${jobKey(mark.jobId)}`]: { op: mark.op, applied: true, at: now }, updatedAt: now },
    });
    return updated !== null;
  }

  /** Removes the job's entry once its mark holds the outcome, and moves the bucket's fence. */
  async clearInflight(countersDocId: string, jobId: string, op: string): Promise<boolean> {
    const key = jobKey(jobId);
    const updated = await this.#counters.updateOne(
      { _id: countersDocId, [`inflight.${key}.op`]: op },
      { $unset: { [`inflight.${key}`]: true }, $inc: { inflightCount: -1, [`fences.${fenceOf(jobId)}`]: 1 } },
    );
    return updated !== null;
  }

  /** counting → counted, for the operation `mark.op` only. */
  markJobCounted(mark: UsageMarkDoc, now: string): Promise<UsageMarkDoc | null> {
    return this.#moveMark(mark, 'counting', { state: 'counted', updatedAt: now });
  }

  /** counting → refused (quota) or cancelled (`problem` says which). */
  markJobRefused(mark: UsageMarkDoc, problem: string, now: string): Promise<UsageMarkDoc | null> {
    return this.#moveMark(mark, 'counting', { state: 'refused', problem, updatedAt: now });
  }

  /** counted → releasing, under the release's own operation token. */
  markJobReleasing(mark: UsageMarkDoc, op: string, now: string): Promise<UsageMarkDoc | null> {
    return this.#moveMark(mark, 'counted', { state: 'releasing', op, updatedAt: now });
  }

  /** releasing → released. */
  markJobReleased(mark: UsageMarkDoc, now: string): Promise<UsageMarkDoc | null> {
    return this.#moveMark(mark, 'releasing', { state: 'released', updatedAt: now });
  }

  /** refused/released → counting for a later attempt (the job is not counted now); never back to an older one. */
  restartJobCount(mark: UsageMarkDoc, attempt: string, targets: number, now: string): Promise<UsageMarkDoc | null> {
    if (mark.state !== 'refused' && mark.state !== 'released') return Promise.resolve(null);
    if (attemptNumber(attempt) <= attemptNumber(mark.attempt)) return Promise.resolve(null);
    return this.#moveMark(mark, mark.state, { state: 'counting', attempt, op: attempt, targets, updatedAt: now }, { problem: true });
  }

  /** Counts one export while under the limit. @returns the counters after, or null at the limit. */
  consumeExport(organizationId: string, month: string, exportsPerMonth: number, now: string): Promise<CountersDoc | null> {
    return this.#counters.updateOne(
      { _id: countersId(organizationId, month), exports: { $lte: exportsPerMonth - 1 } },
      { $inc: { exports: 1 }, $set: { updatedAt: now } },
    );
  }

  /** Counters holding in-flight entries: bounded by operations interrupted between their writes. */
  countersWithInflight(limit: number): Promise<CountersDoc[]> {
    return this.#counters.find({ inflightCount: { $gt: 0 } }, { limit });
  }

  async #moveMark(mark: UsageMarkDoc, from: MarkState, to: Partial<UsageMarkDoc>, unset?: Record<string, true>): Promise<UsageMarkDoc | null> {
    return this.#marks.updateOne({ _id: mark._id, state: from, op: mark.op }, { $set: to, ...(unset ? { $unset: unset } : {}) });
  }
}
