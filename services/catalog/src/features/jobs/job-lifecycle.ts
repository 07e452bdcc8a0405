import { CATALOG_LIMITS, type CreateJobBody, type Identity, type JobStatus } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { annotateLogContext } from '@crawl/logging';
import type { JobMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { BillingPort, Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { AbandonedJobRepository } from './abandoned-job-repository.ts';
import { checkDestination, type DestinationLookup } from './destination-check.ts';
import { assertWithinMaxCredits, creditsToReserve } from './job-credits.ts';
import type { JobDispatch } from './job-dispatch.ts';
import type { JobInput, PreparedJob } from './job-input.ts';
import { countTargets, isTerminalJob, type JobDoc } from './job-model.ts';
import type { JobRepository } from './job-repository.ts';
import type { JobSettlement } from './job-settlement.ts';
import { targetsFromList, type TargetListSource } from './list-targets.ts';

export type JobReason = 'job.create' | 'job.retry' | 'schedule.run' | 'monitor.run';

export interface CreateOptions {
  reason?: JobReason;
  requestId?: string | undefined;
  scheduleId?: string;
  /** A monitor's run or confirmation: the monitor and which kind. */
  monitor?: Required<Pick<JobDoc, 'monitorId' | 'monitorRun'>>;
  /**
   * The id to store the job under, chosen by a caller that records it first (a monitor knows its
   * run before any report of it can arrive). Otherwise a new one.
   */
  jobId?: string;
  retryOf?: string;
  identity?: Identity | null;
  /** The client's request: a client that left before the reservation is taken creates nothing. */
  signal?: AbortSignal | undefined;
}

/** The parts of the user-facing side besides the shared resources. */
export interface JobLifecycleParts {
  jobs: JobRepository;
  abandoned: AbandonedJobRepository;
  input: JobInput;
  /** Where `config.destinationId` is checked at create (the destinations feature); absent, it is not checked. */
  destinations?: DestinationLookup | undefined;
  projects: ProjectService;
  audit: AuditLog;
  dispatch: JobDispatch;
  settlement: JobSettlement;
  /** The targets a job takes from a target list (the target-lists feature). */
  targetLists?: TargetListSource;
}

const CANCEL_ATTEMPTS = 20;

/**
 * The user-facing side: create (validate, reserve, persist, enqueue), read, list, retry, cancel.
 * A create runs here from the route to the stored, enqueued job.
 */
export class JobLifecycle {
  readonly #jobs: JobRepository;
  readonly #abandoned: AbandonedJobRepository;
  readonly #input: JobInput;
  readonly #destinations: DestinationLookup | undefined;
  readonly #clock: Clock;
  readonly #billing: () => BillingPort;
  readonly #projects: ProjectService;
  readonly #audit: AuditLog;
  readonly #dispatch: JobDispatch;
  readonly #settlement: JobSettlement;
  readonly #targetLists: TargetListSource | undefined;
  readonly #logger: Logger;
  readonly #metrics: JobMetrics;

  constructor(resources: CatalogResources, parts: JobLifecycleParts) {
    this.#jobs = parts.jobs;
    this.#abandoned = parts.abandoned;
    this.#input = parts.input;
    this.#destinations = parts.destinations;
    this.#clock = resources.clock;
    this.#billing = resources.billing;
    this.#projects = parts.projects;
    this.#audit = parts.audit;
    this.#dispatch = parts.dispatch;
    this.#settlement = parts.settlement;
    this.#targetLists = parts.targetLists;
    this.#logger = resources.logger;
    this.#metrics = resources.metrics;
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  async create(actor: Actor, projectId: string, body: CreateJobBody, options: CreateOptions = {}): Promise<JobDoc> {
    const project = await this.#projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before creating jobs');
    const prepared = this.#input.prepare(body);
    if (body.targetListId !== undefined) prepared.targets = await this.#listTargets(actor, projectId, body, options);
    assertWithinMaxCredits(creditsToReserve(prepared), body.maxCredits, options.scheduleId ? 'crawlConfig.maxCredits' : 'maxCredits');
    const destinationField = options.scheduleId ? 'crawlConfig.config.destinationId' : 'config.destinationId';
    await this.checkDestination(actor.organizationId, projectId, prepared.config, destinationField);
    const jobId = options.jobId ?? newId('job_');
    const reason = options.reason ?? 'job.create';
    const callContext = { requestId: options.requestId, identity: options.identity ?? null };

    // 402/403 from billing propagate unchanged; nothing has been stored or enqueued yet. Only
    // this call carries the client's signal: once credits are held, the job is finished (or the
    // hold released) whether or not the client is still there.
    options.signal?.throwIfAborted();
    const reservation = await this.#billing().reserve(
      {
        organizationId: actor.organizationId,
        jobId,
        jobType: prepared.type,
        targetCount: prepared.targets.length,
        unitsPerTarget: prepared.unitsPerTarget,
        reason,
      },
      options.signal ? { ...callContext, signal: options.signal } : callContext,
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
      ...(body.maxCredits !== undefined ? { maxCredits: body.maxCredits } : {}),
      resultCount: 0,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      settled: false,
      ...(options.retryOf ? { retryOf: options.retryOf } : {}),
      ...(options.scheduleId ? { scheduleId: options.scheduleId } : {}),
      ...(options.monitor ?? {}),
    };
    let stored: JobDoc;
    try {
      stored = await this.#jobs.insert(doc);
    } catch (error) {
      try {
        await this.#billing().release(jobId, { organizationId: actor.organizationId, reason: 'job could not be persisted' }, callContext);
      } catch (releaseError) {
        // Billing's reconciler releases holds whose job never appeared.
        this.#logger.error({ err: releaseError, jobId }, 'releasing the reservation of an unpersisted job failed');
      }
      throw error;
    }
    // Billing's reconciler may have given up on this job while it was being stored (it marks the
    // id before looking for the job; we stored the job before looking for the mark): then the
    // credits are already back, so the job must not run.
    if (await this.#abandoned.isMarked(jobId)) {
      await this.#jobs.removeUnstarted(stored);
      this.#logger.warn({ jobId }, 'job stored after billing gave up on its reservation; taken back');
      try {
        // Usually released already; not when the reconciler saw the job between our insert and this removal.
        await this.#billing().release(jobId, { organizationId: actor.organizationId, reason: 'job was abandoned while being stored' }, callContext);
      } catch (releaseError) {
        this.#logger.error({ err: releaseError, jobId }, 'releasing the reservation of an abandoned job failed');
      }
      throw errors.unavailable('The job took too long to store and was not created; nothing was charged, try again');
    }

    await this.#dispatch.enqueue(stored);

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
        ...(options.monitor ? { monitorId: options.monitor.monitorId, monitorRun: options.monitor.monitorRun, trigger: 'monitor' } : {}),
      },
    });
    this.#metrics.jobCreated(prepared.type);
    annotateLogContext({ orgId: actor.organizationId, jobId });
    this.#logger.info(
      { orgId: actor.organizationId, jobId, projectId, type: prepared.type, targets: prepared.targets.length, creditsReserved: reservation.credits, reason },
      'job created',
    );
    return stored;
  }

  /** A list's targets for one job: a list past one job's limit is refused (chunked jobs: ADR 0021). */
  #listTargets(actor: Actor, projectId: string, body: CreateJobBody, options: CreateOptions): Promise<PreparedJob['targets']> {
    const field = options.scheduleId ? 'crawlConfig.targetListId' : 'targetListId';
    return targetsFromList(this.#targetLists, { organizationId: actor.organizationId, projectId, type: body.type, listId: body.targetListId as string }, field);
  }

  /** A named destination exists and is the project's (schedules check their crawl definition with it). @throws 400 */
  checkDestination(organizationId: string, projectId: string, config: CreateJobBody['config'], field: string): Promise<void> {
    return checkDestination(this.#destinations, { organizationId, projectId, config }, field);
  }

  async retry(actor: Actor, jobId: string, options: Pick<CreateOptions, 'requestId' | 'identity' | 'signal'> = {}): Promise<JobDoc> {
    const original = await this.getOwned(actor.organizationId, jobId);
    // Retrying a job that is still crawling would crawl (and charge for) the same targets twice.
    if (!isTerminalJob(original.status)) {
      throw errors.conflict(`Job is still ${original.status}: wait for it to finish or cancel it before retrying`, [
        { reason: 'JOB_NOT_FINISHED', status: original.status },
      ]);
    }
    const body: CreateJobBody = {
      type: original.type,
      targets: original.targets.map((t) => t.value),
      ...(Object.keys(original.config).length > 0 ? { config: original.config } : {}),
      ...(original.maxCredits !== undefined ? { maxCredits: original.maxCredits } : {}),
    };
    return this.create(actor, original.projectId, body, { ...options, reason: 'job.retry', retryOf: original._id });
  }

  async getOwned(organizationId: string, id: string): Promise<JobDoc> {
    const job = await this.#jobs.findOwned(organizationId, id);
    if (!job) throw errors.notFound('Job');
    return job;
  }

  async list(organizationId: string, projectId: string, query: { status?: JobStatus | undefined; limit?: number | undefined; offset?: number | undefined }) {
    await this.#projects.getOwned(organizationId, projectId);
    const limit = Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const { jobs, total } = await this.#jobs.listPage({ organizationId, projectId, status: query.status }, { offset, limit });
    return { jobs, meta: { total, limit, offset } };
  }

  /** Queued or running → cancelled; open targets are cancelled (and refunded by the settlement). */
  async cancel(actor: Actor, jobId: string, requestId?: string): Promise<JobDoc> {
    for (let attempt = 0; attempt < CANCEL_ATTEMPTS; attempt += 1) {
      const job = await this.getOwned(actor.organizationId, jobId);
      if (isTerminalJob(job.status)) throw errors.conflict(`Job is already ${job.status}`);
      const cancelled = await this.#jobs.cancelOpen(job, actor.organizationId, this.#now());
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
      await this.#settlement.afterTerminal(cancelled);
      return (await this.#jobs.findById(jobId)) ?? cancelled;
    }
    throw errors.conflict('Job is changing too quickly to cancel; try again');
  }
}
