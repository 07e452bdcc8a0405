import type { CreateJobBody, JobStatus, ReportTargetBody } from '@crawl/contracts';
import type { JobMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/modules';
import type { QueueProvider } from '@crawl/queue';
import type { DocumentStore } from '@crawl/storage';
import type { BillingPort, Logger } from '../shared/ports.ts';
import type { AuditLog } from '../audit/audit-service.ts';
import type { JobEvents } from '../events/event-service.ts';
import type { Actor, ProjectService } from '../projects/project-service.ts';
import type { ResultStore } from '../results/result-service.ts';
import { AbandonedJobRepository } from './abandoned-job-repository.ts';
import { JobDispatch } from './job-dispatch.ts';
import { prepareJobInput } from './job-input.ts';
import { JobLifecycle, type CreateOptions } from './job-lifecycle.ts';
import type { JobDoc } from './job-model.ts';
import { JobRepository } from './job-repository.ts';
import { JobSettlement } from './job-settlement.ts';
import { TargetProgress } from './target-progress.ts';

export { crawlQueue } from './job-dispatch.ts';
export type { CreateOptions, JobReason } from './job-lifecycle.ts';

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
  /** Jobs created and finished; default none. */
  metrics?: JobMetrics | undefined;
  extraHosts?: readonly string[];
  taskAttempts?: number;
  /** Told after each status change of a job or one of its targets (live job events). */
  onChange?: (jobId: string) => void;
}

/**
 * The job lifecycle behind one face: the user-facing create/list/read/retry/cancel
 * (JobLifecycle), the worker-facing claim/report (TargetProgress), settlement with billing
 * (JobSettlement) and queueing (JobDispatch), all on one JobRepository.
 */
export class JobService {
  readonly #repository: JobRepository;
  readonly #abandoned: AbandonedJobRepository;
  readonly #lifecycle: JobLifecycle;
  readonly #progress: TargetProgress;
  readonly #settlement: JobSettlement;
  readonly #extraHosts: readonly string[];
  readonly #projects: ProjectService;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;

  constructor(options: JobServiceOptions) {
    const jobs = new JobRepository(options.store, options.onChange);
    const dispatch = new JobDispatch({ queues: options.queues, taskAttempts: options.taskAttempts, logger: options.logger });
    const settlement = new JobSettlement({
      jobs,
      clock: options.clock,
      billing: options.billing,
      events: options.events,
      logger: options.logger,
      metrics: options.metrics,
    });
    this.#repository = jobs;
    this.#abandoned = new AbandonedJobRepository(options.store);
    this.#projects = options.projects;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#settlement = settlement;
    this.#extraHosts = options.extraHosts ?? [];
    this.#lifecycle = new JobLifecycle({
      jobs,
      abandoned: this.#abandoned,
      clock: options.clock,
      billing: options.billing,
      projects: options.projects,
      audit: options.audit,
      dispatch,
      settlement,
      prepare: (body) => this.prepare(body),
      logger: options.logger,
      metrics: options.metrics,
    });
    this.#progress = new TargetProgress({ jobs, results: options.results, dispatch, settlement, clock: options.clock, logger: options.logger });
  }

  /**
   * Indexes, then the per-project job counts. The first start on data from before counts seeds
   * them before serving (a create must not increment a missing figure); later starts only repair
   * what a crash may have left one short, in the background, so a large catalog starts at once.
   */
  async init(): Promise<void> {
    await this.#repository.init();
    if (!(await this.#repository.countsSeeded())) {
      await this.#repository.reconcileCounts(this.#projects.all());
      await this.#repository.markCountsSeeded(this.#clock.now().toISOString());
      return;
    }
    void this.#repository.reconcileCounts(this.#projects.all()).catch((error: unknown) => {
      this.#logger?.warn({ err: error }, 'reconciling the per-project job counts failed; the next start tries again');
    });
  }

  /** Validation only (schedules check their crawlConfig the same way a job create does). */
  prepare(body: unknown, field?: string) {
    return prepareJobInput(body, { extraHosts: this.#extraHosts, ...(field ? { field } : {}) });
  }

  create(actor: Actor, projectId: string, body: CreateJobBody, options: CreateOptions = {}): Promise<JobDoc> {
    return this.#lifecycle.create(actor, projectId, body, options);
  }

  retry(actor: Actor, jobId: string, options: Pick<CreateOptions, 'requestId' | 'identity' | 'signal'> = {}): Promise<JobDoc> {
    return this.#lifecycle.retry(actor, jobId, options);
  }

  getOwned(organizationId: string, id: string): Promise<JobDoc> {
    return this.#lifecycle.getOwned(organizationId, id);
  }

  list(organizationId: string, projectId: string, query: { status?: JobStatus | undefined; limit?: number | undefined; offset?: number | undefined }) {
    return this.#lifecycle.list(organizationId, projectId, query);
  }

  cancel(actor: Actor, jobId: string, requestId?: string): Promise<JobDoc> {
    return this.#lifecycle.cancel(actor, jobId, requestId);
  }

  claimTarget(jobId: string, index: number): Promise<{ proceed: boolean; jobStatus: string; targetStatus: string }> {
    return this.#progress.claimTarget(jobId, index);
  }

  reportTarget(jobId: string, index: number, report: ReportTargetBody): Promise<{ jobStatus: string; finished: boolean }> {
    return this.#progress.reportTarget(jobId, index, report);
  }

  async jobState(jobId: string): Promise<{ exists: boolean; status?: string; organizationId?: string; settled?: boolean }> {
    const job = await this.#repository.findById(jobId);
    if (!job) return { exists: false };
    return { exists: true, status: job.status, organizationId: job.organizationId, settled: job.settled };
  }

  /**
   * For billing's reconciler about to release a reservation: the job's state, or `exists: false`
   * after marking the id so that a create still storing it takes it back (AbandonedJobRepository).
   */
  async abandonIfMissing(jobId: string): Promise<{ exists: boolean; status?: string; organizationId?: string; settled?: boolean }> {
    const state = await this.jobState(jobId);
    if (state.exists) return state;
    // Only the look after the mark may answer "missing": a create that stored the job before it is seen now.
    await this.#abandoned.mark(jobId, this.#clock.now().toISOString());
    return this.jobState(jobId);
  }

  /** @returns true when the job is now settled (see JobSettlement). */
  settle(jobId: string): Promise<boolean> {
    return this.#settlement.settle(jobId);
  }

  requeueOpenTargets(options: { untouchedSince?: string } = {}): Promise<number> {
    return this.#progress.requeueOpenTargets(options);
  }

  /** See TargetProgress.requeueWhenQueueLost. */
  requeueWhenQueueLost(log: Logger): () => void {
    return this.#progress.requeueWhenQueueLost(log);
  }

  settleUnsettled(): Promise<number> {
    return this.#settlement.settleUnsettled();
  }

  finishIfDone(jobId: string): Promise<void> {
    return this.#progress.finishIfDone(jobId);
  }
}
