import type { CreateJobBody } from '@crawl/contracts';
import type { Collection, Document, DocumentStore } from '@crawl/storage';

export const SCHEDULES_COLLECTION = 'schedules';

export interface ScheduleRunError {
  code: string;
  message: string;
  at: string;
}

export interface ScheduleDoc extends Document {
  organizationId: string;
  projectId: string;
  cron: string;
  timezone: string;
  crawlConfig: CreateJobBody;
  enabled: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastJobId: string | null;
  lastError: ScheduleRunError | null;
  runCount: number;
  /** Credits the runs may reserve per UTC month; absent or null without a budget. */
  maxCreditsPerMonth?: number | null;
  /** The credits the runs reserved in `month` (schedule-budget.ts). */
  budgetUsage?: { month: string; credits: number };
  /** Set while a run would have passed the budget; the pause ends at `pausedUntil` (next month). */
  pausedReason?: 'budget_exhausted' | null;
  pausedUntil?: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The fields a user's update may change (`nextRunAt` when the rule changes or it is re-enabled). */
export type ScheduleChanges = Partial<
  Pick<ScheduleDoc, 'cron' | 'timezone' | 'crawlConfig' | 'enabled' | 'nextRunAt' | 'maxCreditsPerMonth' | 'pausedReason' | 'pausedUntil'>
> & { updatedAt: string };

/**
 * Schedules. User-facing reads and writes are scoped to one organization (another one's id finds
 * nothing); the scheduler's operations (`findDue`, `claimDue`, `record…`) work across organizations.
 */
export class ScheduleRepository {
  readonly #schedules: Collection<ScheduleDoc>;

  constructor(store: DocumentStore) {
    this.#schedules = store.collection<ScheduleDoc>(SCHEDULES_COLLECTION);
  }

  /** The project list (equality fields, then newest first) and the due scan (`enabled`, then `nextRunAt`). */
  async init(): Promise<void> {
    await this.#schedules.ensureIndexes([
      { keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' },
      { keys: { enabled: 1, nextRunAt: 1 }, name: 'due' },
    ]);
  }

  insert(doc: ScheduleDoc): Promise<ScheduleDoc> {
    return this.#schedules.insertOne(doc);
  }

  findOwned(organizationId: string, id: string): Promise<ScheduleDoc | null> {
    return this.#schedules.findOne({ _id: id, organizationId });
  }

  /** A page of a project's schedules, newest first, and how many it has. */
  async listPage(
    scope: { organizationId: string; projectId: string },
    page: { offset: number; limit: number },
  ): Promise<{ schedules: ScheduleDoc[]; total: number }> {
    const filter = { organizationId: scope.organizationId, projectId: scope.projectId };
    const [schedules, total] = await Promise.all([
      this.#schedules.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      this.#schedules.count(filter),
    ]);
    return { schedules, total };
  }

  /** @returns the schedule after the change, or null when the organization has no such schedule. */
  update(organizationId: string, id: string, changes: ScheduleChanges): Promise<ScheduleDoc | null> {
    return this.#schedules.updateOne({ _id: id, organizationId }, { $set: { ...changes } });
  }

  /** Enabled schedules whose run is due at `now`, earliest first. */
  findDue(now: string, limit: number): Promise<ScheduleDoc[]> {
    return this.#schedules.find({ enabled: true, nextRunAt: { $lte: now } }, { sort: { nextRunAt: 1 }, limit });
  }

  /**
   * Claims the run `due` was read with: moves `nextRunAt` to `next` only while the schedule is
   * still enabled and still holds the value read, so of two racing schedulers exactly one wins.
   * @returns the schedule after the claim, or null when the run was claimed (or changed) elsewhere.
   */
  claimDue(due: Pick<ScheduleDoc, '_id' | 'nextRunAt'>, next: string | null, at: string): Promise<ScheduleDoc | null> {
    return this.#schedules.updateOne(
      { _id: due._id, enabled: true, nextRunAt: due.nextRunAt },
      { $set: { nextRunAt: next, lastRunAt: at, updatedAt: at }, $inc: { runCount: 1 } },
    );
  }

  /** A fired run created its job: remembered, and any earlier error cleared. */
  async recordRunJob(id: string, jobId: string): Promise<void> {
    await this.#schedules.updateOne({ _id: id }, { $set: { lastJobId: jobId, lastError: null } });
  }

  /** A fired run could not create its job; the schedule keeps going. */
  async recordRunError(id: string, error: ScheduleRunError): Promise<void> {
    await this.#schedules.updateOne({ _id: id }, { $set: { lastError: error } });
  }
}
