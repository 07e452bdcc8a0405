import {
  ACTIVE_JOB_STATUSES,
  OPEN_TARGET_STATUSES,
  TERMINAL_JOB_STATUSES,
  type BlockKind,
  type JobStatus,
  type TargetCoverage,
  type UnchargedReason,
} from '@crawl/contracts';
import type { Collection, DocumentStore, Filter } from '@crawl/storage';
import type { JobChanges } from '../shared/job-changes.ts';
import { JobCountRepository } from './job-count-repository.ts';
import { isOpenTarget, JOBS_COLLECTION, resultSetIdFor, type JobDoc, type TargetDoc } from './job-model.ts';

const ACTIVE = [...ACTIVE_JOB_STATUSES];
const TERMINAL = [...TERMINAL_JOB_STATUSES];
const OPEN_TARGETS = [...OPEN_TARGET_STATUSES];
/** An organization with more active jobs than this is estimated from its oldest ones (queue positions). */
const MAX_ACTIVE_JOBS_READ = 500;

export type FinalStatus = 'completed' | 'failed';

/** A `$set` of a job document: its own fields, and its targets' fields by index path (`targets.3.status`). */
type JobSet = Partial<JobDoc> & { [Field in keyof TargetDoc as `targets.${number}.${Field}`]?: TargetDoc[Field] };

/** The path of a field of target `index` in the job document. */
const targetPath = <Field extends keyof TargetDoc>(index: number, field: Field): `targets.${number}.${Field}` => `targets.${index}.${field}`;

/** What a worker's report makes of a target. */
export interface TargetOutcome {
  status: 'success' | 'failed';
  resultCount: number;
  /** Records of the report that have each field (see field-coverage.ts); added to the job's counts. */
  fieldCounts?: Record<string, number>;
  reason?: string;
  blockKind?: BlockKind;
  /** A success delivered without charge, and why. */
  uncharged?: UnchargedReason;
  message?: string;
  coverage?: TargetCoverage;
  billableUnits?: number;
  /** Answered from the shared page cache: when the page was fetched. */
  cachedAt?: string;
}

export interface Settlement {
  /** Charged successes. */
  succeeded: number;
  failed: number;
  cancelled: number;
  /** Successes delivered without charge. */
  uncharged: number;
}

/** `fieldCounts.<field>` increments; the fields are the known ones (field-coverage.ts), never a record's own keys. */
function fieldCountIncrements(counts: Record<string, number> | undefined): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const [field, n] of Object.entries(counts ?? {})) inc[`fieldCounts.${field}`] = n;
  return inc;
}

/**
 * The job aggregate's storage, and the one place that opens the `jobs` collection. Every state
 * change is one conditional update on the job document (ADR 0004): the condition names the state
 * the change starts from, so of two racing callers exactly one gets the document back and the
 * other gets null. Each change is announced on `changes` (live job events follow them).
 */
export class JobRepository {
  readonly #jobs: Collection<JobDoc>;
  readonly #counts: JobCountRepository;
  readonly #changes: Pick<JobChanges, 'publish'>;

  constructor(store: DocumentStore, changes: Pick<JobChanges, 'publish'>) {
    this.#jobs = store.collection<JobDoc>(JOBS_COLLECTION);
    this.#counts = new JobCountRepository(store, this.#jobs);
    this.#changes = changes;
  }

  #changed(job: JobDoc | null): JobDoc | null {
    if (job) this.#changes.publish(job._id);
    return job;
  }

  /** Equality fields first, then the order each read walks (lists newest first, an organization's line oldest first). */
  async init(): Promise<void> {
    await this.#jobs.ensureIndexes([
      { keys: { organizationId: 1, projectId: 1, createdAt: -1, _id: -1 }, name: 'org_project_created_id' },
      { keys: { organizationId: 1, projectId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'org_project_status_created_id' },
      { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
      { keys: { settled: 1, status: 1, updatedAt: 1 }, name: 'settled_status_updated' },
      { keys: { organizationId: 1, status: 1, createdAt: 1, _id: 1 }, name: 'org_status_created_id' },
    ]);
  }

  async insert(doc: JobDoc): Promise<JobDoc> {
    const stored = await this.#jobs.insertOne(doc);
    await this.#counts.recordCreated(doc.organizationId, doc.projectId);
    return stored;
  }

  /** Takes back a job that was never enqueued nor answered to anyone (its create gave up). */
  async removeUnstarted(doc: Pick<JobDoc, '_id' | 'organizationId' | 'projectId'>): Promise<void> {
    if (await this.#jobs.deleteOne({ _id: doc._id, status: 'queued' })) await this.#counts.recordRemoved(doc.organizationId, doc.projectId);
  }

  /** Corrects the per-project job counts (see JobCountRepository); run at start. */
  reconcileCounts(projects: AsyncIterable<{ _id: string; organizationId: string }>): Promise<number> {
    return this.#counts.reconcile(projects);
  }

  /** Whether the one-time seeding of the counts is done (then reconciling can run in the background). */
  countsSeeded(): Promise<boolean> {
    return this.#counts.seeded();
  }

  markCountsSeeded(now: string): Promise<void> {
    return this.#counts.markSeeded(now);
  }

  findById(id: string): Promise<JobDoc | null> {
    return this.#jobs.findOne({ _id: id });
  }

  /** The job when it belongs to the organization (another organization's job reads as missing). */
  findOwned(organizationId: string, id: string): Promise<JobDoc | null> {
    return this.#jobs.findOne({ _id: id, organizationId });
  }

  /** The job while it is queued or running. */
  findActive(id: string): Promise<JobDoc | null> {
    return this.#jobs.findOne({ _id: id, status: { $in: ACTIVE } });
  }

  /**
   * A page of a project's jobs, newest first (an index walk), and the total under the same
   * filter: the project's maintained count when unfiltered, an index count with a status.
   */
  async listPage(
    scope: { organizationId: string; projectId: string; status?: JobStatus | undefined },
    page: { offset: number; limit: number },
  ): Promise<{ jobs: JobDoc[]; total: number }> {
    const filter: Filter = { organizationId: scope.organizationId, projectId: scope.projectId };
    if (scope.status !== undefined) filter.status = scope.status;
    const [jobs, total] = await Promise.all([
      this.#jobs.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      scope.status === undefined ? this.#counts.jobsIn(scope.organizationId, scope.projectId) : this.#jobs.count(filter),
    ]);
    return { jobs, total };
  }

  /** Target `index` → running (and the job with it), from pending or running (a re-delivered task). */
  async claimTarget(id: string, index: number, now: string): Promise<JobDoc | null> {
    return this.#changed(
      await this.#jobs.updateOne(
        { _id: id, status: { $in: ACTIVE }, [`targets.${index}.status`]: { $in: OPEN_TARGETS } },
        { $set: { status: 'running', [`targets.${index}.status`]: 'running', [`targets.${index}.startedAt`]: now, updatedAt: now }, $min: { startedAt: now } },
      ),
    );
  }

  /**
   * The right to apply one report to an open target: free, already this report's (`token`, so a
   * report retried after a failure gets back in), or taken before `staleBefore` (its reporter
   * died). Of two different reports at once exactly one gets the job back; the other gets null
   * and must not touch the target's rows.
   */
  takeReportLease(id: string, index: number, token: string, now: string, staleBefore: string): Promise<JobDoc | null> {
    const target = `targets.${index}`;
    return this.#jobs.updateOne(
      {
        _id: id,
        status: { $in: ACTIVE },
        [`${target}.status`]: { $in: OPEN_TARGETS },
        $or: [{ [`${target}.reportToken`]: { $exists: false } }, { [`${target}.reportToken`]: token }, { [`${target}.reportingAt`]: { $lt: staleBefore } }],
      },
      { $set: { [`${target}.reportToken`]: token, [`${target}.reportingAt`]: now } },
    );
  }

  /**
   * Moves an open target to its outcome and adds its results to the job's count, only while the
   * report holds the target's lease (`token`): one report per target gets through; a cancelled
   * or finished target (or job), or a lease taken over, gives null.
   */
  async recordReport(id: string, index: number, outcome: TargetOutcome, now: string, token: string): Promise<JobDoc | null> {
    const set: JobSet = { status: 'running', updatedAt: now };
    set[targetPath(index, 'status')] = outcome.status;
    set[targetPath(index, 'resultCount')] = outcome.resultCount;
    set[targetPath(index, 'finishedAt')] = now;
    if (outcome.reason !== undefined) set[targetPath(index, 'reason')] = outcome.reason;
    if (outcome.blockKind !== undefined) set[targetPath(index, 'blockKind')] = outcome.blockKind;
    if (outcome.uncharged !== undefined) set[targetPath(index, 'uncharged')] = outcome.uncharged;
    if (outcome.message !== undefined) set[targetPath(index, 'message')] = outcome.message;
    if (outcome.coverage !== undefined) set[targetPath(index, 'coverage')] = outcome.coverage;
    if (outcome.billableUnits !== undefined) set[targetPath(index, 'billableUnits')] = outcome.billableUnits;
    if (outcome.cachedAt !== undefined) set[targetPath(index, 'cachedAt')] = outcome.cachedAt;
    return this.#changed(
      await this.#jobs.updateOne(
        { _id: id, status: { $in: ACTIVE }, [`targets.${index}.status`]: { $in: OPEN_TARGETS }, [`targets.${index}.reportToken`]: token },
        { $set: set, $inc: { resultCount: outcome.resultCount, ...fieldCountIncrements(outcome.fieldCounts) }, $min: { startedAt: now } },
      ),
    );
  }

  /** Active → completed or failed. Null when the job already left the active states. */
  async finish(id: string, status: FinalStatus, now: string): Promise<JobDoc | null> {
    return this.#changed(
      await this.#jobs.updateOne({ _id: id, status: { $in: ACTIVE } }, { $set: { status, completedAt: now, updatedAt: now, resultSetId: resultSetIdFor(id) } }),
    );
  }

  /**
   * Cancels the job as it was read: its open targets must all still be open (a report that slipped
   * in gives null, and the caller reads again). The job and those targets become cancelled.
   */
  async cancelOpen(job: JobDoc, organizationId: string, now: string): Promise<JobDoc | null> {
    const filter: Filter = { _id: job._id, organizationId, status: { $in: ACTIVE } };
    const set: JobSet = { status: 'cancelled', completedAt: now, updatedAt: now, resultSetId: resultSetIdFor(job._id) };
    job.targets.forEach((target, index) => {
      if (!isOpenTarget(target.status)) return;
      filter[`targets.${index}.status`] = { $in: OPEN_TARGETS };
      set[targetPath(index, 'status')] = 'cancelled';
      set[targetPath(index, 'finishedAt')] = now;
    });
    return this.#changed(await this.#jobs.updateOne(filter, { $set: set }));
  }

  /**
   * The settlement lease of a terminal, unsettled job: free, or older than `staleBefore` (a
   * crashed settler). Exactly one racing caller gets the job back.
   */
  takeSettleLease(id: string, now: string, staleBefore: string): Promise<JobDoc | null> {
    return this.#jobs.updateOne(
      { _id: id, status: { $in: TERMINAL }, settled: false, $or: [{ settleClaimedAt: { $exists: false } }, { settleClaimedAt: { $lt: staleBefore } }] },
      { $set: { settleClaimedAt: now } },
    );
  }

  async releaseSettleLease(id: string): Promise<void> {
    await this.#jobs.updateOne({ _id: id, settled: false }, { $unset: { settleClaimedAt: true } });
  }

  async markSettled(id: string, settlement: Settlement, now: string): Promise<void> {
    await this.#jobs.updateOne({ _id: id, settled: false }, { $set: { settled: true, settledAt: now, settlement } });
  }

  /** Queued and running jobs, oldest first, optionally only those untouched since a time. */
  streamActive(options: { untouchedSince?: string | undefined } = {}): AsyncIterable<JobDoc> {
    const filter: Filter = { status: { $in: ACTIVE } };
    if (options.untouchedSince) filter.updatedAt = { $lt: options.untouchedSince };
    return this.#jobs.stream(filter, { sort: { createdAt: 1 } });
  }

  /** An organization's queued and running jobs, oldest first (at most MAX_ACTIVE_JOBS_READ): its line at the fair dispatcher. */
  activeLine(organizationId: string): Promise<JobDoc[]> {
    return this.#jobs.find({ organizationId, status: { $in: ACTIVE } }, { sort: { createdAt: 1, _id: 1 }, limit: MAX_ACTIVE_JOBS_READ });
  }

  /** Terminal jobs billing has not confirmed yet, least recently touched first. */
  findUnsettled(limit: number): Promise<JobDoc[]> {
    return this.#jobs.find({ settled: false, status: { $in: TERMINAL } }, { sort: { updatedAt: 1 }, limit });
  }
}
