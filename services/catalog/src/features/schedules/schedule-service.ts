import { CATALOG_LIMITS, type CreateJobBody, type CreateScheduleBody, type Schedule, type UpdateScheduleBody } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { OutboxEvents } from '../events/index.ts';
import { creditsToReserve, type JobInput, type JobLifecycle } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { DEFAULT_TIMEZONE, nextRunAfter, validateCron } from './cron-rules.ts';
import { creditsIn, isBudgetPaused, monthOf, nextMonthStart, SCHEDULE_BUDGET_EXHAUSTED, type ScheduleBudgetRepository } from './schedule-budget.ts';
import type { ScheduleChanges, ScheduleDoc, ScheduleRepository, ScheduleRunError } from './schedule-repository.ts';

export type { ScheduleDoc } from './schedule-repository.ts';

/** @param now when the view is read: a budget pause whose month is over no longer shows. */
export function toScheduleView(doc: ScheduleDoc, now: Date = new Date()): Schedule {
  const paused = isBudgetPaused(doc, now);
  return {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    cron: doc.cron,
    timezone: doc.timezone,
    crawlConfig: doc.crawlConfig,
    enabled: doc.enabled,
    maxCreditsPerMonth: doc.maxCreditsPerMonth ?? null,
    budget: { month: monthOf(now), credits: creditsIn(doc, monthOf(now)) },
    pausedReason: paused ? 'budget_exhausted' : null,
    pausedUntil: paused ? (doc.pausedUntil ?? null) : null,
    // A disabled schedule will not run: the stored time is only where the rule would have been.
    nextRunAt: doc.enabled ? doc.nextRunAt : null,
    lastRunAt: doc.lastRunAt,
    lastJobId: doc.lastJobId,
    lastError: doc.lastError,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** The parts of schedules besides the shared resources. */
export interface ScheduleParts {
  schedules: ScheduleRepository;
  projects: ProjectService;
  /** Scheduled runs create their jobs through the user's path. */
  jobs: JobLifecycle;
  /** A schedule's crawlConfig follows the rules of a job create body. */
  input: JobInput;
  audit: AuditLog;
  /** A run that could not create its job is written to the outbox (webhooks send `schedule.failed`). */
  events: OutboxEvents;
  minIntervalMinutes: number;
  /** The monthly credit budgets of schedules (`maxCreditsPerMonth`). */
  budgets: ScheduleBudgetRepository;
}

/** The normalized crawl definition a schedule keeps: the same rules as a job create body. */
function normalizedConfig(input: JobInput, body: CreateJobBody): CreateJobBody {
  const prepared = input.prepare(body, 'crawlConfig');
  return {
    type: prepared.type,
    targets: prepared.targets.map((t) => t.value),
    ...(body.config !== undefined ? { config: prepared.config } : {}),
    ...(body.maxCredits !== undefined ? { maxCredits: body.maxCredits } : {}),
  };
}

export class ScheduleService {
  readonly #schedules: ScheduleRepository;
  readonly #options: ScheduleParts;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: ScheduleParts) {
    this.#schedules = parts.schedules;
    this.#options = parts;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  #now(): Date {
    return this.#clock.now();
  }

  /** The Schedule as the API shows it now (a budget pause shows until its month is over). */
  view(doc: ScheduleDoc): Schedule {
    return toScheduleView(doc, this.#now());
  }

  async create(actor: Actor, projectId: string, body: CreateScheduleBody, requestId?: string): Promise<ScheduleDoc> {
    const project = await this.#options.projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before adding schedules');
    const now = this.#now();
    const timezone = body.timezone ?? DEFAULT_TIMEZONE;
    const { nextRunAt } = validateCron(body.cron, timezone, this.#options.minIntervalMinutes, now);
    const crawlConfig = normalizedConfig(this.#options.input, body.crawlConfig);
    await this.#options.jobs.checkDestination(actor.organizationId, projectId, crawlConfig.config, 'crawlConfig.config.destinationId');
    const iso = now.toISOString();
    const doc: ScheduleDoc = {
      _id: newId('sch_'),
      organizationId: actor.organizationId,
      projectId,
      cron: body.cron.trim(),
      timezone,
      crawlConfig,
      enabled: body.enabled ?? true,
      nextRunAt: nextRunAt.toISOString(),
      lastRunAt: null,
      lastJobId: null,
      lastError: null,
      runCount: 0,
      maxCreditsPerMonth: body.maxCreditsPerMonth ?? null,
      createdBy: actor.userId,
      createdAt: iso,
      updatedAt: iso,
    };
    const created = await this.#schedules.insert(doc);
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'schedule.create',
      resourceType: 'schedule',
      resourceId: doc._id,
      requestId,
      metadata: { projectId, cron: doc.cron, timezone, enabled: doc.enabled },
    });
    return created;
  }

  async list(organizationId: string, projectId: string, query: { limit?: number | undefined; offset?: number | undefined } = {}) {
    await this.#options.projects.getOwned(organizationId, projectId);
    const limit = Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit);
    const offset = query.offset ?? 0;
    const { schedules, total } = await this.#schedules.listPage({ organizationId, projectId }, { offset, limit });
    return { schedules, meta: { total, limit, offset } };
  }

  async getOwned(organizationId: string, id: string): Promise<ScheduleDoc> {
    const schedule = await this.#schedules.findOwned(organizationId, id);
    if (!schedule) throw errors.notFound('Schedule');
    return schedule;
  }

  async update(actor: Actor, id: string, patch: UpdateScheduleBody, requestId?: string): Promise<ScheduleDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    const now = this.#now();
    const set: ScheduleChanges = { updatedAt: now.toISOString() };
    const cron = patch.cron ?? current.cron;
    const timezone = patch.timezone ?? current.timezone;
    const enabled = patch.enabled ?? current.enabled;
    if (patch.cron !== undefined || patch.timezone !== undefined) {
      validateCron(cron, timezone, this.#options.minIntervalMinutes, now);
      set.cron = cron.trim();
      set.timezone = timezone;
    }
    if (patch.crawlConfig !== undefined) {
      set.crawlConfig = normalizedConfig(this.#options.input, patch.crawlConfig);
      await this.#options.jobs.checkDestination(actor.organizationId, current.projectId, set.crawlConfig.config, 'crawlConfig.config.destinationId');
    }
    if (patch.enabled !== undefined) set.enabled = patch.enabled;
    if (patch.maxCreditsPerMonth !== undefined) {
      // A raised or removed budget lets the next run try again this month.
      set.maxCreditsPerMonth = patch.maxCreditsPerMonth;
      set.pausedReason = null;
      set.pausedUntil = null;
    }
    // A changed rule or a re-enable counts from now: missed runs are not replayed.
    if (patch.cron !== undefined || patch.timezone !== undefined || (patch.enabled === true && !current.enabled)) {
      set.nextRunAt = nextRunAfter(cron, timezone, now)?.toISOString() ?? null;
    }
    const updated = await this.#schedules.update(actor.organizationId, id, set);
    if (!updated) throw errors.notFound('Schedule');
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'schedule.update',
      resourceType: 'schedule',
      resourceId: id,
      requestId,
      metadata: { changes: Object.keys(patch), enabled },
    });
    return updated;
  }

  /**
   * Fires every due schedule once. A run is claimed by moving `nextRunAt` forward with a
   * conditional update on the value that was read, so two schedulers never fire the same run.
   * @returns the ids of the schedules this call fired.
   */
  async runDue(batch = 50): Promise<string[]> {
    const now = this.#now();
    const nowIso = now.toISOString();
    const fired: string[] = [];
    const due = await this.#schedules.findDue(nowIso, batch);
    for (const schedule of due) {
      const next = nextRunAfter(schedule.cron, schedule.timezone, now);
      const claimed = await this.#schedules.claimDue(schedule, next?.toISOString() ?? null, nowIso);
      if (!claimed) continue;
      fired.push(schedule._id);
      await this.#fire(claimed, nowIso);
    }
    return fired;
  }

  /** Creates the job through the user path (quota, credits, queue); a refusal is kept on the schedule. */
  async #fire(schedule: ScheduleDoc, at: string): Promise<void> {
    const now = new Date(at);
    // A run while the budget pause lasts is skipped (not replayed): the month's budget is spent.
    if (isBudgetPaused(schedule, now)) return;
    const month = monthOf(now);
    let held = 0;
    try {
      held = await this.#takeBudget(schedule, now);
      if (held < 0) return;
      const job = await this.#options.jobs.create(
        { userId: schedule.createdBy, organizationId: schedule.organizationId },
        schedule.projectId,
        schedule.crawlConfig,
        {
          reason: 'schedule.run',
          scheduleId: schedule._id,
        },
      );
      await this.#schedules.recordRunJob(schedule._id, job._id);
      if (held > 0) await this.#options.budgets.adjust(schedule._id, month, job.creditsReserved - held);
    } catch (error) {
      if (held > 0) await this.#options.budgets.adjust(schedule._id, month, -held).catch(() => undefined);
      const appError = error instanceof AppError ? error : undefined;
      if (!appError) this.#logger.error({ err: error, scheduleId: schedule._id }, 'scheduled run failed');
      const lastError: ScheduleRunError = {
        code: appError?.code ?? 'INTERNAL_ERROR',
        message: appError?.message ?? 'The scheduled run failed unexpectedly',
        at,
      };
      await this.#schedules.recordRunError(schedule._id, lastError).catch(() => undefined);
      await this.#options.events
        .scheduleFailed({
          scheduleId: schedule._id,
          organizationId: schedule.organizationId,
          projectId: schedule.projectId,
          error: { code: lastError.code, message: lastError.message },
          occurredAt: lastError.at,
        })
        .catch((eventError: unknown) => this.#logger.error({ err: eventError, scheduleId: schedule._id }, 'recording the schedule.failed event failed'));
    }
  }

  /**
   * Takes the run's credits from the schedule's monthly budget (the credits its job would
   * reserve). @returns them (0 without a budget), or -1 when they do not fit: then the schedule
   * pauses until the next month, keeps why on `lastError`, and says so (`schedule.failed` with
   * code SCHEDULE_BUDGET_EXHAUSTED).
   */
  async #takeBudget(schedule: ScheduleDoc, now: Date): Promise<number> {
    const max = schedule.maxCreditsPerMonth ?? null;
    if (max === null) return 0;
    const credits = creditsToReserve(this.#options.input.prepare(schedule.crawlConfig, 'crawlConfig'));
    const month = monthOf(now);
    if (await this.#options.budgets.take(schedule._id, month, credits, max)) return credits;
    const at = now.toISOString();
    const error: ScheduleRunError = {
      code: SCHEDULE_BUDGET_EXHAUSTED,
      message: `A run needs ${credits} credits; ${creditsIn(schedule, month)} of the schedule's ${max} credits this month are used. The schedule is paused until ${nextMonthStart(now).toISOString()}`,
      at,
    };
    const paused = await this.#options.budgets.pause(schedule._id, error, nextMonthStart(now).toISOString());
    if (!paused) return -1;
    await this.#options.audit.recordQuietly({
      organizationId: schedule.organizationId,
      actorUserId: schedule.createdBy,
      action: 'schedule.update',
      resourceType: 'schedule',
      resourceId: schedule._id,
      metadata: { paused: 'budget_exhausted', credits, maxCreditsPerMonth: max },
    });
    await this.#options.events
      .scheduleFailed({
        scheduleId: schedule._id,
        organizationId: schedule.organizationId,
        projectId: schedule.projectId,
        error: { code: error.code, message: error.message },
        occurredAt: at,
      })
      .catch((eventError: unknown) => this.#logger.error({ err: eventError, scheduleId: schedule._id }, 'recording the schedule.failed event failed'));
    this.#logger.info({ orgId: schedule.organizationId, scheduleId: schedule._id }, 'schedule paused: monthly budget exhausted');
    return -1;
  }
}
