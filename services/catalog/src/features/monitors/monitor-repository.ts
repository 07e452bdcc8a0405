import type { MonitorRunError } from '@crawl/contracts';
import type { Collection, DocumentStore } from '@crawl/storage';
import { MONITORS_COLLECTION, type MonitorDefinition, type MonitorDoc } from './monitor-model.ts';

/** What a user's update, a pause or a resume may change. */
export type MonitorChanges = Partial<MonitorDefinition> &
  Partial<Pick<MonitorDoc, 'status' | 'pausedReason' | 'pausedAt' | 'resumesAt' | 'nextRunAt'>> & { updatedAt: string };

/**
 * Monitors. User-facing reads and writes are scoped to one organization (another one's id finds
 * nothing); the runner's operations (`findDue`, `claimDue`, the budget, `record…`) work across
 * organizations by id.
 */
export class MonitorRepository {
  readonly #monitors: Collection<MonitorDoc>;

  constructor(store: DocumentStore) {
    this.#monitors = store.collection<MonitorDoc>(MONITORS_COLLECTION);
  }

  /** The project list (equality fields, then newest first), the due scan and the scan for budget pauses that end. */
  async init(): Promise<void> {
    await this.#monitors.ensureIndexes([
      { keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' },
      { keys: { status: 1, nextRunAt: 1 }, name: 'due' },
      { keys: { pausedReason: 1, resumesAt: 1 }, name: 'budget_resume' },
    ]);
  }

  insert(doc: MonitorDoc): Promise<MonitorDoc> {
    return this.#monitors.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<MonitorDoc | null> {
    return this.#monitors.findOne({ _id: id, organizationId });
  }

  findById(id: string): Promise<MonitorDoc | null> {
    return this.#monitors.findOne({ _id: id });
  }

  countForProject(organizationId: string, projectId: string): Promise<number> {
    return this.#monitors.count({ organizationId, projectId });
  }

  /** A page of a project's monitors, newest first, and how many it has. */
  async listPage(
    scope: { organizationId: string; projectId: string },
    page: { offset: number; limit: number },
  ): Promise<{ monitors: MonitorDoc[]; total: number }> {
    const filter = { organizationId: scope.organizationId, projectId: scope.projectId };
    const [monitors, total] = await Promise.all([
      this.#monitors.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#monitors.count(filter),
    ]);
    return { monitors, total };
  }

  /** @returns the monitor after the change, or null when the organization has no such monitor. */
  update(organizationId: string, id: string, changes: MonitorChanges): Promise<MonitorDoc | null> {
    return this.#monitors.updateOne({ _id: id, organizationId }, { $set: { ...changes } });
  }

  /** @returns false when the organization has no such monitor. */
  remove(organizationId: string, id: string): Promise<boolean> {
    return this.#monitors.deleteOne({ _id: id, organizationId });
  }

  /** Active monitors whose run is due at `now`, earliest first. */
  findDue(now: string, limit: number): Promise<MonitorDoc[]> {
    return this.#monitors.find({ status: 'active', nextRunAt: { $lte: now } }, { sort: { nextRunAt: 1 }, limit });
  }

  /**
   * Claims the run `due` was read with: moves `nextRunAt` to `next` only while the monitor is
   * still active and still holds the value read, so of two racing runners exactly one wins.
   * @returns the monitor after the claim, or null when the run was claimed (or changed) elsewhere.
   */
  claimDue(due: Pick<MonitorDoc, '_id' | 'nextRunAt'>, next: string | null, at: string): Promise<MonitorDoc | null> {
    return this.#monitors.updateOne(
      { _id: due._id, status: 'active', nextRunAt: due.nextRunAt },
      { $set: { nextRunAt: next, lastRunAt: at, updatedAt: at }, $inc: { runCount: 1 } },
    );
  }

  /**
   * A run created its job: remembered, and any earlier error cleared. A run asked for now passes
   * its time (a scheduled run's was set when it was claimed), so `lastRunAt` counts every run.
   */
  async recordRunJob(id: string, jobId: string, ranAt?: string): Promise<void> {
    await this.#monitors.updateOne({ _id: id }, { $set: { lastJobId: jobId, lastError: null, ...(ranAt === undefined ? {} : { lastRunAt: ranAt }) } });
  }

  /** A run (or a confirmation) could not create its job; the monitor keeps going. */
  async recordRunError(id: string, error: MonitorRunError): Promise<void> {
    await this.#monitors.updateOne({ _id: id }, { $set: { lastError: error } });
  }

  async recordTriggered(id: string, at: string): Promise<void> {
    await this.#monitors.updateOne({ _id: id }, { $max: { lastTriggeredAt: at } });
  }

  /**
   * Takes `credits` from the monitor's budget for `month`, atomically: a new month starts from 0,
   * and with a `max` the credits are taken only while they fit, so two runs at once never both
   * pass it. Without a max the credits are only counted. @returns false when they do not fit.
   */
  async takeCredits(id: string, month: string, credits: number, max: number | null): Promise<boolean> {
    await this.#monitors.updateOne({ _id: id, 'usage.month': { $ne: month } }, { $set: { usage: { month, credits: 0 } } });
    const filter = max === null ? { _id: id, 'usage.month': month } : { _id: id, 'usage.month': month, 'usage.credits': { $lte: max - credits } };
    return (await this.#monitors.updateOne(filter, { $inc: { 'usage.credits': credits } })) !== null;
  }

  /** Gives back (negative) or adds credits counted for `month` (a run whose job was not created, a reservation that differed). */
  async adjustCredits(id: string, month: string, credits: number): Promise<void> {
    if (credits === 0) return;
    await this.#monitors.updateOne({ _id: id, 'usage.month': month }, { $inc: { 'usage.credits': credits } });
  }

  /** An active monitor pauses for its budget until `resumesAt`. @returns it, or null when it was not active (already paused). */
  pauseForBudget(id: string, at: string, resumesAt: string): Promise<MonitorDoc | null> {
    return this.#monitors.updateOne(
      { _id: id, status: 'active' },
      { $set: { status: 'paused', pausedReason: 'budget_exhausted', pausedAt: at, resumesAt, nextRunAt: null, updatedAt: at } },
    );
  }

  /** Monitors paused for their budget whose month is over. */
  findBudgetResumable(now: string, limit: number): Promise<MonitorDoc[]> {
    return this.#monitors.find({ pausedReason: 'budget_exhausted', resumesAt: { $lte: now } }, { sort: { resumesAt: 1 }, limit });
  }

  /** Resumes a budget pause as read (a user's resume or pause meanwhile wins). */
  resumeAfterBudget(paused: Pick<MonitorDoc, '_id' | 'resumesAt'>, nextRunAt: string | null, at: string): Promise<MonitorDoc | null> {
    return this.#monitors.updateOne(
      { _id: paused._id, pausedReason: 'budget_exhausted', resumesAt: paused.resumesAt },
      { $set: { status: 'active', pausedReason: null, pausedAt: null, resumesAt: null, nextRunAt, updatedAt: at } },
    );
  }
}
