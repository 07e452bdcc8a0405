import { commaList } from '@crawl/config';
import type { DataModuleContext, ModuleContext } from '@crawl/modules';
import { BillingClient } from '@crawl/service-client';
import type { CatalogConfig } from './config.ts';
import { AuditLog } from './features/audit/audit-service.ts';
import { JobEvents } from './features/events/event-service.ts';
import { JobChanges } from './features/job-events/job-changes.ts';
import { JobEventService } from './features/job-events/job-event-service.ts';
import { crawlQueue } from './features/jobs/job-dispatch.ts';
import { JobService } from './features/jobs/job-service.ts';
import { ProjectService } from './features/projects/project-service.ts';
import { jobViewWithQueue } from './features/queue-position/job-view.ts';
import { QueuePositions } from './features/queue-position/queue-position.ts';
import { ResultStore } from './features/results/result-service.ts';
import { ScheduleService } from './features/schedules/schedule-service.ts';
import { WebhookService, type WebhookOptions } from './features/webhooks/webhook-service.ts';
import type { BillingPort } from './features/shared/ports.ts';

export interface Catalog {
  readonly audit: AuditLog;
  readonly projects: ProjectService;
  readonly jobs: JobService;
  readonly results: ResultStore;
  readonly schedules: ScheduleService;
  readonly events: JobEvents;
  readonly webhooks: WebhookService;
  /** Live job events (SSE streams) and the announcements of job changes they follow. */
  readonly jobEvents: JobEventService;
  readonly jobChanges: JobChanges;
  readonly queuePositions: QueuePositions;
  readonly billing: () => BillingPort;
  /** One pass of background work: fire due schedules, settle leftovers, re-enqueue stale targets. */
  tick(): Promise<void>;
}

export interface CatalogOptions {
  /** Replaces the billing client (tests). */
  billing?: (context: ModuleContext<CatalogConfig>) => BillingPort;
  /** Webhook seams (resolver, timers, jitter, sender, auto-dispatch) for tests. */
  webhooks?: WebhookOptions;
}

export async function createCatalog(context: DataModuleContext<CatalogConfig>, options: CatalogOptions = {}): Promise<Catalog> {
  const { store, clock, logger, config } = context;
  let billingClient: BillingPort | undefined;
  // Built lazily: the billing client needs BILLING_URL only when billing runs elsewhere.
  const billing = () => (billingClient ??= options.billing ? options.billing(context) : new BillingClient(context.client('billing')));
  const audit = new AuditLog({ store, clock, logger });
  const projects = new ProjectService({ store, clock, audit });
  const results = new ResultStore(store);
  const events = new JobEvents({ store, logger });
  const jobChanges = new JobChanges(context.queues, logger);
  const jobs = new JobService({
    store,
    clock,
    queues: context.queues,
    billing,
    projects,
    results,
    audit,
    events,
    logger,
    metrics: context.metrics,
    extraHosts: commaList(config.MARKETPLACE_EXTRA_HOSTS.toLowerCase()),
    taskAttempts: config.CRAWL_TASK_ATTEMPTS,
    onChange: (jobId) => jobChanges.publish(jobId),
  });
  const queuePositions = new QueuePositions({ store, queue: crawlQueue(context.queues, config.CRAWL_TASK_ATTEMPTS), logger });
  const jobEvents = new JobEventService({
    jobs,
    changes: jobChanges,
    view: jobViewWithQueue(queuePositions),
    timing: { heartbeatMs: config.JOB_EVENTS_HEARTBEAT_MS, pollMs: config.JOB_EVENTS_POLL_MS, minReadGapMs: Math.min(200, config.JOB_EVENTS_POLL_MS) },
    maxStreamsPerOrganization: config.JOB_EVENTS_MAX_STREAMS_PER_ORG,
    logger,
  });
  const schedules = new ScheduleService({
    store,
    clock,
    projects,
    jobs,
    audit,
    minIntervalMinutes: config.SCHEDULE_MIN_INTERVAL_MINUTES,
    logger,
    onRunFailed: (schedule, error) =>
      events.scheduleFailed({
        scheduleId: schedule._id,
        organizationId: schedule.organizationId,
        projectId: schedule.projectId,
        error: { code: error.code, message: error.message },
        occurredAt: error.at,
      }),
  });
  const webhooks = new WebhookService({
    store,
    clock,
    queues: context.queues,
    logger,
    metrics: context.metrics,
    audit,
    projects,
    jobs,
    schedules,
    events,
    secretsKey: config.WEBHOOK_SECRETS_KEY ?? context.secrets.jwtSecret,
    settings: {
      requireHttps: config.WEBHOOK_REQUIRE_HTTPS,
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
      maxInFlightPerOrg: config.WEBHOOK_MAX_IN_FLIGHT_PER_ORG,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
      secretOverlapMs: config.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
      publicBaseUrl: config.WEBHOOK_PUBLIC_BASE_URL,
      retentionMs: config.WEBHOOK_LOG_RETENTION_DAYS * 86_400_000,
    },
    ...(options.webhooks ? { options: options.webhooks } : {}),
  });
  await Promise.all([audit.init(), projects.init(), results.init(), events.init(), jobs.init(), schedules.init(), webhooks.init(), queuePositions.init()]);

  const tick = async () => {
    if (config.SCHEDULER_ENABLED) await schedules.runDue();
    await jobs.settleUnsettled();
    await jobs.requeueOpenTargets({ untouchedSince: new Date(clock.now().getTime() - config.REQUEUE_STALE_AFTER_MS).toISOString() });
    await webhooks.prune();
  };
  return { audit, projects, jobs, results, schedules, events, webhooks, jobEvents, jobChanges, queuePositions, billing, tick };
}

const catalogs = new WeakMap<object, Catalog>();

export function registerCatalog(context: object, catalog: Catalog): void {
  catalogs.set(context, catalog);
}

/** The catalog services behind a module context (tests drive the scheduler and events through it). */
export function catalogOf(context: object): Catalog {
  const catalog = catalogs.get(context);
  if (!catalog) throw new Error('catalog is not initialized in this context');
  return catalog;
}
