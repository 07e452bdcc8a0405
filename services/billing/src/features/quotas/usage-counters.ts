import type { UsageLimits, UsageUsed } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import { jobQuotaProblem } from './limits.ts';

export interface UsageDoc {
  _id: string;
  organizationId: string;
  month: string;
  jobs: number;
  targets: number;
  exports: number;
  /** Jobs counted this month (encoded id → targets): what makes consuming and giving back idempotent. */
  jobMarks: Record<string, number>;
  updatedAt: string;
  [key: string]: unknown;
}

/** Job ids may hold `.` or `$`, which a field name may not: base64url has neither. */
function markPath(jobId: string): string {
  return `jobMarks.${Buffer.from(jobId, 'utf8').toString('base64url')}`;
}

function usedOf(doc: UsageDoc | null): UsageUsed {
  return { jobsThisMonth: doc?.jobs ?? 0, targetsThisMonth: doc?.targets ?? 0, exportsThisMonth: doc?.exports ?? 0 };
}

const MAX_ATTEMPTS = 20;

/**
 * Monthly counters, one document per organization and UTC month. Every consumption is one
 * conditional `$inc` whose filter states the limit, so racing requests can never pass it; the
 * job and target limits are checked and consumed in the same update.
 */
export class UsageCounters {
  readonly #usage: Collection<UsageDoc>;
  readonly #clock: Clock;

  constructor(store: DocumentStore, clock: Clock) {
    this.#usage = store.collection<UsageDoc>('usage');
    this.#clock = clock;
  }

  async init(): Promise<void> {
    await this.#usage.ensureIndexes([{ keys: { organizationId: 1, month: 1 }, name: 'organization_month' }]);
  }

  async used(organizationId: string, month: string): Promise<UsageUsed> {
    return usedOf(await this.#usage.findOne({ _id: `${organizationId}:${month}` }));
  }

  /**
   * Counts one job and its targets, idempotently on the job id.
   * @returns false when this job was already counted this month.
   * @throws FORBIDDEN (403) when either limit would be exceeded; nothing is consumed then.
   */
  async consumeJob(organizationId: string, month: string, jobId: string, targets: number, limits: UsageLimits): Promise<boolean> {
    const _id = await this.#ensure(organizationId, month);
    const mark = markPath(jobId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const updated = await this.#usage.updateOne(
        { _id, [mark]: { $exists: false }, jobs: { $lte: limits.jobsPerMonth - 1 }, targets: { $lte: limits.targetsPerMonth - targets } },
        { $inc: { jobs: 1, targets }, $set: { [mark]: targets, updatedAt: this.#clock.now().toISOString() } },
      );
      if (updated) return true;
      const current = await this.#usage.findOne({ _id });
      if (current && mark.slice('jobMarks.'.length) in (current.jobMarks ?? {})) return false;
      const problem = jobQuotaProblem(limits, usedOf(current), targets);
      if (problem) throw errors.quotaExceeded(problem);
      // The counters moved between the update and the read: try again.
    }
    throw errors.unavailable('Usage counters are too busy, try again');
  }

  /** Gives back a counted job (its job was never created). @returns false when it was not counted. */
  async releaseJob(organizationId: string, month: string, jobId: string): Promise<boolean> {
    const _id = `${organizationId}:${month}`;
    const mark = markPath(jobId);
    const current = await this.#usage.findOne({ _id, [mark]: { $exists: true } });
    if (!current) return false;
    const targets = current.jobMarks[mark.slice('jobMarks.'.length)] ?? 0;
    const updated = await this.#usage.updateOne(
      { _id, [mark]: { $exists: true } },
      { $inc: { jobs: -1, targets: -targets }, $unset: { [mark]: true }, $set: { updatedAt: this.#clock.now().toISOString() } },
    );
    return updated !== null;
  }

  /** Counts one export. @throws FORBIDDEN (403) when `exportsPerMonth` is used up. */
  async consumeExport(organizationId: string, month: string, limits: UsageLimits): Promise<UsageUsed> {
    const _id = await this.#ensure(organizationId, month);
    const updated = await this.#usage.updateOne(
      { _id, exports: { $lte: limits.exportsPerMonth - 1 } },
      { $inc: { exports: 1 }, $set: { updatedAt: this.#clock.now().toISOString() } },
    );
    if (!updated) throw errors.quotaExceeded(`Monthly export limit reached (${limits.exportsPerMonth} exports per month)`);
    return usedOf(updated);
  }

  async #ensure(organizationId: string, month: string): Promise<string> {
    const _id = `${organizationId}:${month}`;
    try {
      await this.#usage.updateOne(
        { _id },
        { $setOnInsert: { organizationId, month, jobs: 0, targets: 0, exports: 0, jobMarks: {}, updatedAt: this.#clock.now().toISOString() } },
        { upsert: true },
      );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    return _id;
  }
}
