import {
  CATALOG_LIMITS,
  crawlQueueDefinition,
  type CrawlTask,
  type CreateJobBody,
  type Identity,
  type JobStatus,
  type ReportTargetBody,
} from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import type { QueueProvider, WorkQueue } from '@crawl/queue';
import { newId, type Collection, type DocumentStore, type Filter } from '@crawl/storage';
import type { BillingPort, Logger } from '../../shared.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { JobEvents } from '../events/job-events.ts';
import type { Actor, ProjectService } from '../projects/project-service.ts';
import type { ResultStore } from '../results/result-store.ts';
import { prepareJobInput } from './job-input.ts';
import { countTargets, crawlTaskId, isOpenTarget, isTerminalJob, JOBS_COLLECTION, resultSetIdFor, type JobDoc, type TargetDoc } from './job-model.ts';

const ACTIVE: JobStatus[] = ['queued', 'running'];
const OPEN_TARGETS = ['pending', 'running'];
const ENQUEUE_CHUNK = 50;
/** A settlement lease older than this is considered abandoned (crashed settler) and retaken. */
const SETTLE_LEASE_MS = 60_000;

export type JobReason = 'job.create' | 'job.retry' | 'schedule.run';

export interface CreateOptions {
  reason?: JobReason;
  requestId?: string | undefined;
  scheduleId?: string;
  retryOf?: string;
  identity?: Identity | null;
}

export interface JobServiceOptions {
  store: DocumentStore;
  clock: Clock;
  queues: QueueProvider;
  billing: () => BillingPort;
  projects: ProjectService;
  results: ResultStore;
  audit: AuditLog;
  events: JobEvents;
  logger?: Logger | undefined;
  extraHosts?: readonly string[];
  taskAttempts?: number;
}

export function crawlQueue(queues: QueueProvider, attempts = 3): WorkQueue<CrawlTask> {
  return queues.queue<CrawlTask>(crawlQueueDefinition(attempts));
}

/**
 * The job lifecycle: create (validate, reserve, persist, enqueue), list, read, retry, cancel, and
 * the worker-facing claim/report that drive targets to a terminal state and settle the job.
 */
export class JobService {
  readonly #jobs: Collection<JobDoc>;
  readonly #clock: Clock;
  readonly #queue: WorkQueue<CrawlTask>;
  readonly #billing: () => BillingPort;
  readonly #projects: ProjectService;
  readonly #results: ResultStore;
  readonly #audit: AuditLog;
  readonly #events: JobEvents;
  readonly #logger: Logger | undefined;
  readonly #extraHosts: readonly string[];

  constructor(options: JobServiceOptions) {
    this.#jobs = options.store.collection<JobDoc>(JOBS_COLLECTION);
    this.#clock = options.clock;
    this.#queue = crawlQueue(options.queues, options.taskAttempts);
    this.#billing = options.billing;
    this.#projects = options.projects;
    this.#results = options.results;
    this.#audit = options.audit;
    this.#events = options.events;
    this.#logger = options.logger;
    this.#extraHosts = options.extraHosts ?? [];
  }

  async init(): Promise<void> {
    await this.#jobs.ensureIndexes([
      { keys: { organizationId: 1, projectId: 1, createdAt: -1 }, name: 'org_project_created' },
      { keys: { status: 1, updatedAt: 1 }, name: 'status_updated' },
    ]);
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  /** Validation only (schedules check their crawlConfig the same way a job create does). */
  prepare(body: unknown, field?: string) {
    return prepareJobInput(body, { extraHosts: this.#extraHosts, ...(field ? { field } : {}) });
  }

  async create(actor: Actor, projectId: string, body: CreateJobBody, options: CreateOptions = {}): Promise<JobDoc> {
    const project = await this.#projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before creating jobs');
    const prepared = this.prepare(body);
    const jobId = newId('job_');
    const reason = options.reason ?? 'job.create';
    const callContext = { requestId: options.requestId, identity: options.identity ?? null };

    // 402/403 from billing propagate unchanged; nothing has been stored or enqueued yet.
    const reservation = await this.#billing().reserve(
      {
        organizationId: actor.organizationId,
        jobId,
        jobType: prepared.type,
        targetCount: prepared.targets.length,
        unitsPerTarget: prepared.unitsPerTarget,
        reason,
      },
      callContext,
    );

    const now = this.#now();
    const doc: JobDoc = {
      _id: jobId,
      organizationId: actor.organizationId,
      projectId,
      type: prepared.type,
      status: 'queued',
      targets: prepared.targets.map((t) => ({ ...t, status: 'pending' })),
      config: prepared.config,
      unitsPerTarget: prepared.unitsPerTarget,
      creditsReserved: reservation.credits,
      bullJobId: crawlTaskId(jobId, 0),
      resultCount: 0,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      settled: false,
      ...(options.retryOf ? { retryOf: options.retryOf } : {}),
      ...(options.scheduleId ? { scheduleId: options.scheduleId } : {}),
    };
    let stored: JobDoc;
    try {
      stored = await this.#jobs.insertOne(doc);
    } catch (error) {
      try {
        await this.#billing().release(jobId, { organizationId: actor.organizationId, reason: 'job could not be persisted' }, callContext);
      } catch (releaseError) {
        // Billing's reconciler releases holds whose job never appeared.
        this.#logger?.error({ err: releaseError, jobId }, 'releasing the reservation of an unpersisted job failed');
      }
      throw error;
    }

    const bullJobId = await this.#enqueueTargets(stored);
    if (bullJobId && bullJobId !== stored.bullJobId) {
      stored = (await this.#jobs.updateOne({ _id: jobId }, { $set: { bullJobId } })) ?? { ...stored, bullJobId };
    }

    await this.#audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: reason === 'job.retry' ? 'job.retry' : 'job.create',
      resourceType: 'job',
      resourceId: jobId,
      requestId: options.requestId,
      metadata: {
        projectId,
        type: prepared.type,
        targetCount: prepared.targets.length,
        creditsReserved: reservation.credits,
        ...(options.retryOf ? { retryOf: options.retryOf } : {}),
        ...(options.scheduleId ? { scheduleId: options.scheduleId, trigger: 'schedule' } : {}),
      },
    });
    return stored;
  }

  /**
   * One task per open target, id `${jobId}-${index}` (idempotent). A queue outage does not fail
   * the request: the job is stored and the maintenance loop enqueues its targets later.
   * @returns the queue id of target 0's task, when it was enqueued.
   */
  async #enqueueTargets(job: JobDoc, onlyOpen = false): Promise<string | undefined> {
    const indexes = job.targets.flatMap((target, index) => (!onlyOpen || isOpenTarget(target.status) ? [index] : []));
    let first: string | undefined;
    try {
      for (let start = 0; start < indexes.length; start += ENQUEUE_CHUNK) {
        const added = await Promise.all(
          indexes.slice(start, start + ENQUEUE_CHUNK).map(async (index) => {
            const target = job.targets[index] as TargetDoc;
            const task: CrawlTask = {
              jobId: job._id,
              organizationId: job.organizationId,
              projectId: job.projectId,
              targetIndex: index,
              type: job.type,
              value: job.type === 'details' ? (target.asin ?? target.value) : target.value,
              config: job.config,
            };
            const { id } = await this.#queue.add(task, { jobId: crawlTaskId(job._id, index), group: job.organizationId });
            return [index, id] as const;
          }),
        );
        for (const [index, id] of added) if (index === 0) first = id;
      }
    } catch (error) {
      this.#logger?.warn({ err: error, jobId: job._id }, 'enqueueing crawl tasks failed; they will be enqueued by the maintenance loop');
    }
    return first;
  }

  async retry(actor: Actor, jobId: string, options: { requestId?: string | undefined; identity?: Identity | null } = {}): Promise<JobDoc> {
    const original = await this.getOwned(actor.organizationId, jobId);
    const body: CreateJobBody = {
      type: original.type,
      targets: original.targets.map((t) => t.value),
      ...(Object.keys(original.config).length > 0 ? { config: original.config } : {}),
    };
    return this.create(actor, original.projectId, body, { ...options, reason: 'job.retry', retryOf: original._id });
  }

  async getOwned(organizationId: string, id: string): Promise<JobDoc> {
    const job = await this.#jobs.findOne({ _id: id, organizationId });
    if (!job) throw errors.notFound('Job');
    return job;
  }

  async list(organizationId: string, projectId: string, query: { status?: JobStatus | undefined; limit?: number | undefined; offset?: number | undefined }) {
    await this.#projects.getOwned(organizationId, projectId);
    const limit = Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const filter: Filter = { organizationId, projectId };
    if (query.status !== undefined) filter.status = query.status;
    const [jobs, total] = await Promise.all([this.#jobs.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: offset, limit }), this.#jobs.count(filter)]);
    return { jobs, meta: { total, limit, offset } };
  }

  /** Queued or running → cancelled; open targets are cancelled (and refunded by the settlement). */
  async cancel(actor: Actor, jobId: string, requestId?: string): Promise<JobDoc> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const job = await this.getOwned(actor.organizationId, jobId);
      if (isTerminalJob(job.status)) throw errors.conflict(`Job is already ${job.status}`);
      const now = this.#now();
      const filter: Filter = { _id: jobId, organizationId: actor.organizationId, status: { $in: ACTIVE } };
      const set: Record<string, unknown> = { status: 'cancelled', completedAt: now, updatedAt: now, resultSetId: resultSetIdFor(jobId) };
      job.targets.forEach((target, index) => {
        if (!isOpenTarget(target.status)) return;
        filter[`targets.${index}.status`] = { $in: OPEN_TARGETS };
        set[`targets.${index}.status`] = 'cancelled';
        set[`targets.${index}.finishedAt`] = now;
      });
      const cancelled = await this.#jobs.updateOne(filter, { $set: set });
      if (!cancelled) continue; // a target finished meanwhile: read again
      await this.#audit.recordQuietly({
        organizationId: actor.organizationId,
        actorUserId: actor.userId,
        action: 'job.cancel',
        resourceType: 'job',
        resourceId: jobId,
        requestId,
        metadata: { previousStatus: job.status, cancelledTargets: countTargets(cancelled.targets).cancelled },
      });
      await this.#afterTerminal(cancelled);
      return (await this.#jobs.findOne({ _id: jobId })) ?? cancelled;
    }
    throw errors.conflict('Job is changing too quickly to cancel; try again');
  }

  // -------------------------------------------------------------------------------------------
  // Worker-facing

  async claimTarget(jobId: string, index: number): Promise<{ proceed: boolean; jobStatus: string; targetStatus: string }> {
    const now = this.#now();
    const claimed = await this.#jobs.updateOne(
      { _id: jobId, status: { $in: ACTIVE }, [`targets.${index}.status`]: { $in: OPEN_TARGETS } },
      { $set: { status: 'running', [`targets.${index}.status`]: 'running', [`targets.${index}.startedAt`]: now, updatedAt: now }, $min: { startedAt: now } },
    );
    if (claimed) return { proceed: true, jobStatus: claimed.status, targetStatus: 'running' };
    const job = await this.#jobs.findOne({ _id: jobId });
    const target = job?.targets[index];
    if (!job || !target) throw errors.notFound('Target');
    return { proceed: false, jobStatus: job.status, targetStatus: target.status };
  }

  async reportTarget(jobId: string, index: number, report: ReportTargetBody): Promise<{ jobStatus: string; finished: boolean }> {
    const job = await this.#jobs.findOne({ _id: jobId });
    const target = job?.targets[index];
    if (!job || !target) throw errors.notFound('Target');
    // A report for a cancelled or already finished target (or job) changes nothing.
    if (isTerminalJob(job.status) || !isOpenTarget(target.status)) return { jobStatus: job.status, finished: isTerminalJob(job.status) };

    const items = report.status === 'success' ? report.items : [];
    if (items.length > 0) await this.#results.replaceTarget(jobId, index, items);
    else await this.#results.clearTarget(jobId, index);

    const now = this.#now();
    const set: Record<string, unknown> = {
      status: 'running',
      [`targets.${index}.status`]: report.status,
      [`targets.${index}.resultCount`]: items.length,
      [`targets.${index}.finishedAt`]: now,
      updatedAt: now,
    };
    if (report.status === 'failed') {
      set[`targets.${index}.reason`] = report.reason ?? 'upstream_error';
      if (report.message !== undefined) set[`targets.${index}.message`] = report.message;
    }
    const updated = await this.#jobs.updateOne(
      { _id: jobId, status: { $in: ACTIVE }, [`targets.${index}.status`]: { $in: OPEN_TARGETS } },
      { $set: set, $inc: { resultCount: items.length }, $min: { startedAt: now } },
    );
    if (!updated) {
      // Cancelled (or reported by someone else) between the read and the write.
      const current = await this.#jobs.findOne({ _id: jobId });
      if (current && current.targets[index]?.status === 'cancelled') await this.#results.clearTarget(jobId, index);
      return { jobStatus: current?.status ?? job.status, finished: current ? isTerminalJob(current.status) : false };
    }
    const counts = countTargets(updated.targets);
    if (counts.open > 0) return { jobStatus: updated.status, finished: false };

    const finalStatus: JobStatus = counts.succeeded > 0 ? 'completed' : 'failed';
    const finished = await this.#jobs.updateOne(
      { _id: jobId, status: { $in: ACTIVE } },
      { $set: { status: finalStatus, completedAt: now, updatedAt: now, resultSetId: resultSetIdFor(jobId) } },
    );
    if (finished) await this.#afterTerminal(finished);
    const latest = finished ?? (await this.#jobs.findOne({ _id: jobId }));
    return { jobStatus: latest?.status ?? finalStatus, finished: true };
  }

  async jobState(jobId: string): Promise<{ exists: boolean; status?: string; organizationId?: string; settled?: boolean }> {
    const job = await this.#jobs.findOne({ _id: jobId });
    if (!job) return { exists: false };
    return { exists: true, status: job.status, organizationId: job.organizationId, settled: job.settled };
  }

  /** Settle with billing, then announce. Called by whoever moved the job to a terminal state. */
  async #afterTerminal(job: JobDoc): Promise<void> {
    await this.settle(job._id);
    try {
      await this.#events.jobFinished({
        jobId: job._id,
        organizationId: job.organizationId,
        projectId: job.projectId,
        status: job.status as 'completed' | 'failed' | 'cancelled',
        occurredAt: job.completedAt ?? this.#now(),
      });
    } catch (error) {
      this.#logger?.error({ err: error, jobId: job._id }, 'recording the job-finished event failed');
    }
  }

  /**
   * Exactly one caller at a time holds the settlement lease (conditional update); billing's
   * settle is idempotent on the job id as well. @returns true when the job is now settled.
   */
  async settle(jobId: string): Promise<boolean> {
    const now = this.#clock.now();
    const staleLease = new Date(now.getTime() - SETTLE_LEASE_MS).toISOString();
    const claimed = await this.#jobs.updateOne(
      {
        _id: jobId,
        status: { $in: ['completed', 'failed', 'cancelled'] },
        settled: false,
        $or: [{ settleClaimedAt: { $exists: false } }, { settleClaimedAt: { $lt: staleLease } }],
      },
      { $set: { settleClaimedAt: now.toISOString() } },
    );
    if (!claimed) return false;
    const counts = countTargets(claimed.targets);
    try {
      await this.#billing().settle({
        organizationId: claimed.organizationId,
        jobId,
        succeededTargets: counts.succeeded,
        failedTargets: counts.failed,
        cancelledTargets: counts.cancelled + counts.open,
      });
    } catch (error) {
      this.#logger?.error({ err: error, jobId }, 'settling the job with billing failed; the maintenance loop retries');
      await this.#jobs.updateOne({ _id: jobId, settled: false }, { $unset: { settleClaimedAt: true } });
      return false;
    }
    await this.#jobs.updateOne(
      { _id: jobId, settled: false },
      { $set: { settled: true, settledAt: this.#now(), settlement: { succeeded: counts.succeeded, failed: counts.failed, cancelled: counts.cancelled + counts.open } } },
    );
    return true;
  }

  /** After a restart: the store kept the jobs, the in-process queue did not keep their tasks. */
  async requeueOpenTargets(options: { untouchedSince?: string } = {}): Promise<number> {
    const filter: Filter = { status: { $in: ACTIVE } };
    if (options.untouchedSince) filter.updatedAt = { $lt: options.untouchedSince };
    let tasks = 0;
    for await (const job of this.#jobs.stream(filter, { sort: { createdAt: 1 } })) {
      const open = job.targets.filter((t) => isOpenTarget(t.status)).length;
      if (open === 0) {
        await this.finishIfDone(job._id);
        continue;
      }
      await this.#enqueueTargets(job, true);
      tasks += open;
    }
    return tasks;
  }

  /** Terminal jobs whose settlement did not go through (billing down, crash) are settled again. */
  async settleUnsettled(): Promise<number> {
    const pending = await this.#jobs.find({ status: { $in: ['completed', 'failed', 'cancelled'] }, settled: false }, { sort: { updatedAt: 1 }, limit: 100 });
    let settled = 0;
    for (const job of pending) if (await this.settle(job._id)) settled += 1;
    return settled;
  }

  /** A last-resort finisher: a job whose targets are all terminal but that is still active. */
  async finishIfDone(jobId: string): Promise<void> {
    const job = await this.#jobs.findOne({ _id: jobId, status: { $in: ACTIVE } });
    if (!job) return;
    const counts = countTargets(job.targets);
    if (counts.open > 0) return;
    const now = this.#now();
    const finished = await this.#jobs.updateOne(
      { _id: jobId, status: { $in: ACTIVE } },
      { $set: { status: counts.succeeded > 0 ? 'completed' : 'failed', completedAt: now, updatedAt: now, resultSetId: resultSetIdFor(jobId) } },
    );
    if (finished) await this.#afterTerminal(finished);
  }
}
