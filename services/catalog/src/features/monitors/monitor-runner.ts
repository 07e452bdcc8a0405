import { CREDITS_PER_TARGET, type CreateJobBody, type JobConfig } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { MonitorPausedEvent, OutboxEvents } from '../events/index.ts';
import type { JobDoc, JobLifecycle, MonitorRun } from '../jobs/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { monthOf, nextMonthStart, toMonitorView, type MonitorDoc } from './monitor-model.ts';
import type { MonitorRepository } from './monitor-repository.ts';
import { firstRunAt, nextRunAfterClaim } from './monitor-timing.ts';
import type { MonitorRunRepository } from './run-repository.ts';

export interface MonitorRunnerParts {
  monitors: MonitorRepository;
  runs: MonitorRunRepository;
  /** Runs are ordinary jobs, created through the user's path (quota, credits, queue). */
  jobs: Pick<JobLifecycle, 'create'>;
  audit: AuditLog;
  /** A monitor that pauses itself says so to webhooks (`monitor.paused`). */
  outbox: OutboxEvents;
}

/** What one job of a monitor crawls, when it is not the whole run: a confirmation's one target and the fields it needs. */
export interface RunScope {
  targets: string[];
  require?: string[];
  confirmationId?: string;
}

const BUDGET_EXHAUSTED = 'MONITOR_BUDGET_EXHAUSTED';

/**
 * A monitor's jobs: due runs fired from the maintenance tick, runs asked for now, confirmations.
 * Each is an ordinary job linked to its monitor; its credits are first taken from the monitor's
 * monthly budget, and a run that would pass it pauses the monitor until the next month.
 */
export class MonitorRunner {
  readonly #parts: MonitorRunnerParts;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: MonitorRunnerParts) {
    this.#parts = parts;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  /**
   * Fires every due monitor once (up to `batch × maxBatches` a tick; the rest at the next). A run
   * is claimed by moving `nextRunAt` forward with a conditional update on the value read, so two
   * runners never fire the same run.
   * @returns the ids of the monitors this call ran.
   */
  async runDue(batch = 50, maxBatches = 20): Promise<string[]> {
    const now = this.#clock.now();
    const nowIso = now.toISOString();
    const ran: string[] = [];
    // A claimed run moves its monitor out of the due scan, so each batch reads the next ones.
    for (let round = 0; round < maxBatches; round += 1) {
      const due = await this.#parts.monitors.findDue(nowIso, batch);
      for (const monitor of due) {
        const next = nextRunAfterClaim(monitor, monitor.nextRunAt ?? nowIso, now);
        const claimed = await this.#parts.monitors.claimDue(monitor, next?.toISOString() ?? null, nowIso);
        if (!claimed) continue;
        ran.push(claimed._id);
        await this.#runScheduled(claimed, nowIso);
      }
      if (due.length < batch) break;
    }
    return ran;
  }

  /** Monitors paused for their budget start again when their month is over. @returns how many. */
  async resumeBudgetPaused(batch = 50): Promise<number> {
    const now = this.#clock.now();
    const nowIso = now.toISOString();
    let resumed = 0;
    for (const monitor of await this.#parts.monitors.findBudgetResumable(nowIso, batch)) {
      if (await this.#parts.monitors.resumeAfterBudget(monitor, firstRunAt(monitor, now)?.toISOString() ?? null, nowIso)) resumed += 1;
    }
    return resumed;
  }

  /** A run asked for now (paused or not): refusals answer the caller, the schedule keeps its times. */
  async runNow(actor: Actor, monitor: MonitorDoc, requestId?: string): Promise<JobDoc> {
    const job = await this.start(monitor, 'manual', actor);
    await this.#parts.monitors.recordRunJob(monitor._id, job._id, job.createdAt);
    await this.#parts.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'monitor.run',
      resourceType: 'monitor',
      resourceId: monitor._id,
      requestId,
      metadata: { jobId: job._id },
    });
    return job;
  }

  /** A scheduled run: a refusal (credits, quota, budget, archived project) is kept on the monitor, which keeps going. */
  async #runScheduled(monitor: MonitorDoc, at: string): Promise<void> {
    try {
      const job = await this.start(monitor, 'scheduled', { userId: monitor.createdBy, organizationId: monitor.organizationId });
      await this.#parts.monitors.recordRunJob(monitor._id, job._id);
    } catch (error) {
      await this.recordFailure(monitor, error, at);
    }
  }

  /** Keeps why a job of the monitor could not be created (`lastError`: a refusal of the create, or the budget's 409). */
  async recordFailure(monitor: MonitorDoc, error: unknown, at: string): Promise<void> {
    const appError = error instanceof AppError ? error : undefined;
    if (!appError) this.#logger.error({ err: error, monitorId: monitor._id }, 'a monitor run failed');
    await this.#parts.monitors
      .recordRunError(monitor._id, {
        code: appError?.code ?? 'INTERNAL_ERROR',
        message: appError?.message ?? 'The monitor run failed unexpectedly',
        at,
      })
      .catch((recordError: unknown) => this.#logger.error({ err: recordError, monitorId: monitor._id }, 'recording a monitor run error failed'));
  }

  /**
   * Creates one job of the monitor: its credits taken from the monthly budget (atomically), the
   * run recorded under the job's id before the job exists (its first report finds it), then the
   * job created as a user's is. A refusal gives the credits back to the budget.
   * @throws 409 when the budget cannot take the run (the monitor pauses), or the job create's refusal.
   */
  async start(monitor: MonitorDoc, kind: MonitorRun, actor: Actor, scope?: RunScope): Promise<JobDoc> {
    const { monitors, runs, jobs } = this.#parts;
    const now = this.#clock.now();
    const targets = scope?.targets ?? monitor.targets;
    const credits = CREDITS_PER_TARGET[monitor.type] * targets.length;
    const month = monthOf(now);
    if (!(await monitors.takeCredits(monitor._id, month, credits, monitor.maxCreditsPerMonth))) {
      await this.#pauseForBudget(monitor, credits, now);
      throw errors.conflict(`The run needs ${credits} credits and would pass the monitor's budget of ${monitor.maxCreditsPerMonth} credits this month`, [
        { reason: BUDGET_EXHAUSTED, credits, maxCreditsPerMonth: monitor.maxCreditsPerMonth },
      ]);
    }
    const jobId = newId('job_');
    try {
      await runs.insert({
        _id: jobId,
        monitorId: monitor._id,
        organizationId: monitor.organizationId,
        kind,
        ...(scope?.confirmationId ? { confirmationId: scope.confirmationId } : {}),
        createdAt: now.toISOString(),
      });
      const job = await jobs.create(actor, monitor.projectId, jobBodyOf(monitor, targets, scope?.require), {
        reason: 'monitor.run',
        jobId,
        monitor: { monitorId: monitor._id, monitorRun: kind },
      });
      await monitors.adjustCredits(monitor._id, month, job.creditsReserved - credits);
      return job;
    } catch (error) {
      await runs.remove(jobId).catch(() => undefined);
      await monitors.adjustCredits(monitor._id, month, -credits).catch(() => undefined);
      throw error;
    }
  }

  /** Pauses an active monitor until the next month, and says so (outbox, audit). Already paused: nothing more. */
  async #pauseForBudget(monitor: MonitorDoc, credits: number, now: Date): Promise<void> {
    const at = now.toISOString();
    const paused = await this.#parts.monitors.pauseForBudget(monitor._id, at, nextMonthStart(now).toISOString());
    if (!paused) return;
    const message = `A run needs ${credits} credits; ${paused.usage.month === monthOf(now) ? paused.usage.credits : 0} of ${monitor.maxCreditsPerMonth} were used this month`;
    const event: MonitorPausedEvent = {
      monitor: toMonitorView(paused, now),
      organizationId: paused.organizationId,
      projectId: paused.projectId,
      reason: 'budget_exhausted',
      message,
      occurredAt: at,
    };
    await this.#parts.outbox
      .monitorPaused(event)
      .catch((error: unknown) => this.#logger.error({ err: error, monitorId: monitor._id }, 'recording the monitor.paused event failed'));
    await this.#parts.audit.recordQuietly({
      organizationId: paused.organizationId,
      actorUserId: paused.createdBy,
      action: 'monitor.pause',
      resourceType: 'monitor',
      resourceId: paused._id,
      metadata: { reason: 'budget_exhausted', credits, maxCreditsPerMonth: monitor.maxCreditsPerMonth },
    });
    this.#logger.info({ orgId: paused.organizationId, monitorId: paused._id }, 'monitor paused: monthly budget exhausted');
  }
}

/** The job of a run: the monitor's targets (or a confirmation's one), storefront and delivery location. */
function jobBodyOf(monitor: MonitorDoc, targets: string[], require?: string[]): CreateJobBody {
  const config: JobConfig = {
    domain: monitor.domain,
    ...(monitor.deliveryZip !== null ? { deliveryZip: monitor.deliveryZip } : {}),
    ...(require && require.length > 0 ? { require } : {}),
  };
  return { type: monitor.type, targets, config };
}
