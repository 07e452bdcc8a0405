import { commaList } from '@crawl/config';
import type { Job } from '@crawl/contracts';
import type { DataModuleContext, ModuleContext } from '@crawl/runtime';
import { BillingClient } from '@crawl/service-client';
import type { CatalogConfig } from './config.ts';
import { AuditLog } from './features/audit/index.ts';
import { OutboxEvents } from './features/events/index.ts';
import { Destinations, type DestinationSeams } from './features/destinations/index.ts';
import { s3ObjectSink } from '@crawl/destination-s3';
import { JobExports } from './features/exports/index.ts';
import { HistoryRecorder, HistoryService } from './features/history/index.ts';
import { JobEventService } from './features/job-events/index.ts';
import { crawlQueue, JobDispatch, JobInput, JobLifecycle, JobReconciliation, JobSettlement, TargetProgress, type JobDoc } from './features/jobs/index.ts';
import { ProjectService } from './features/projects/index.ts';
import { QueuePositions } from './features/queue-position/index.ts';
import { ResultStore } from './features/results/index.ts';
import { ScheduleService } from './features/schedules/index.ts';
import { Monitors } from './features/monitors/index.ts';
import { JobChanges } from './features/shared/job-changes.ts';
import type { BillingPort } from './features/shared/ports.ts';
import type { CatalogResources } from './features/shared/resources.ts';
import { openDeliveryQueue, WebhookService, type WebhookOptions } from './features/webhooks/index.ts';
import { JobEstimates } from './cross-feature/job-estimates.ts';
import { jobViewWithQueue } from './cross-feature/job-view.ts';
import { CatalogMaintenance } from './cross-feature/maintenance.ts';
import { observedThenMonitored } from './cross-feature/observed-then-monitored.ts';
import { TargetListService } from './features/target-lists/index.ts';
import { PageCacheStore } from './features/page-cache/index.ts';
import { CatalogRepositories } from './repositories.ts';

/** Catalog's services, composed once per module: what the routes and the background work act on. */
export interface Catalog {
  readonly audit: AuditLog;
  readonly projects: ProjectService;
  /** Jobs as their users see them: create, list, read, retry, cancel. */
  readonly jobs: JobLifecycle;
  readonly targetLists: TargetListService;
  /** Targets as the worker drives them: claim, report; the last-resort finisher and the requeue. */
  readonly progress: TargetProgress;
  readonly settlement: JobSettlement;
  /** What billing's reconciler asks about a reserved job. */
  readonly reconciliation: JobReconciliation;
  readonly results: ResultStore;
  readonly exports: JobExports;
  readonly schedules: ScheduleService;
  /** The outbox: job-finished and schedule-failed events. */
  readonly events: OutboxEvents;
  readonly webhooks: WebhookService;
  /** Destinations (S3-compatible buckets) and the writing of finished jobs' results to them. */
  readonly destinations: Destinations;
  /** Live job events (SSE streams) and the announcements of job changes they follow. */
  readonly jobEvents: JobEventService;
  readonly jobChanges: JobChanges;
  readonly queuePositions: QueuePositions;
  /** What a job would reserve, count and wait for, created now (nothing is). */
  readonly estimates: JobEstimates;
  /** The Job as `GET /jobs/:id` and the `job` events show it: with `queue` while it waits or runs. */
  readonly jobView: (job: JobDoc) => Promise<Job>;
  /** Observations of products and keywords' ranks as change points: the reads and the retention. */
  readonly history: HistoryService;
  /** Writes a successful target's observations and returns the changes (the report path calls it). */
  readonly historyRecorder: HistoryRecorder;
  /** Monitors: their API, runs, budget, rules on history's changes and confirmations. */
  readonly monitors: Monitors;
  /** The background work that spans features (the module runs it on a timer). */
  readonly maintenance: CatalogMaintenance;
  /** The shared page cache the worker reads and writes (docs/adr/0023-shared-page-cache.md). */
  readonly pageCache: PageCacheStore;
}

export interface CatalogOptions {
  /** Replaces the billing client (tests). */
  billing?: (context: ModuleContext<CatalogConfig>) => BillingPort;
  /** Webhook seams (resolver, timers, jitter, sender, auto-dispatch) for tests. */
  webhooks?: WebhookOptions;
  /** Destination seams (object sink, resolver, jitter, part size) for tests. */
  destinations?: DestinationSeams;
}

/**
 * Builds the catalog: the shared resources, every repository once, then each service with the
 * resources and the parts it uses. Each service is built before those that call it.
 */
export async function createCatalog(context: DataModuleContext<CatalogConfig>, options: CatalogOptions = {}): Promise<Catalog> {
  const { store, clock, logger, config } = context;
  let billingClient: BillingPort | undefined;
  const billing = () => (billingClient ??= options.billing ? options.billing(context) : new BillingClient(context.client('billing')));
  const resources: CatalogResources = { clock, logger, metrics: context.metrics, billing };
  const jobChanges = new JobChanges(context.queues, logger);
  const repositories = new CatalogRepositories(store, jobChanges);
  const queue = crawlQueue(context.queues, config.CRAWL_TASK_ATTEMPTS);

  const audit = new AuditLog(resources, { events: repositories.audit });
  const events = new OutboxEvents(resources, { outbox: repositories.outbox });
  const projects = new ProjectService(resources, { projects: repositories.projects, audit });
  const results = new ResultStore({ rows: repositories.results });
  const input = new JobInput({ extraHosts: commaList(config.MARKETPLACE_EXTRA_HOSTS.toLowerCase()) });
  const dispatch = new JobDispatch(resources, { queue, taskAttempts: config.CRAWL_TASK_ATTEMPTS });
  const settlement = new JobSettlement(resources, { jobs: repositories.jobs, events });
  const targetLists = new TargetListService(resources, { lists: repositories.targetLists, projects, input });
  const jobs = new JobLifecycle(resources, {
    jobs: repositories.jobs,
    abandoned: repositories.abandonedJobs,
    input,
    // Destinations are built below (they read jobs); the lookup reaches them when a job is created.
    destinations: { projectOf: (organizationId, id): Promise<string | null> => destinations.service.projectOf(organizationId, id) },
    targetLists,
    projects,
    audit,
    dispatch,
    settlement,
  });
  const history = new HistoryService(resources, { observations: repositories.observations, retentionDays: config.HISTORY_RETENTION_DAYS });
  const historyRecorder = new HistoryRecorder({ observations: repositories.observations });
  const monitors = new Monitors(resources, {
    monitors: repositories.monitors,
    runs: repositories.monitorRuns,
    events: repositories.monitorEvents,
    cooldowns: repositories.monitorCooldowns,
    confirmations: repositories.monitorConfirmations,
    projects,
    jobs,
    input,
    targetLists,
    results,
    audit,
    outbox: events,
    changes: jobChanges,
  });
  const progress = new TargetProgress(resources, {
    jobs: repositories.jobs,
    results,
    dispatch,
    settlement,
    observer: observedThenMonitored(historyRecorder, monitors),
  });
  const reconciliation = new JobReconciliation(resources, { jobs: repositories.jobs, abandoned: repositories.abandonedJobs });
  const queuePositions = new QueuePositions(resources, { queue, jobs: repositories.jobs });
  const jobView = jobViewWithQueue(queuePositions);
  const estimates = new JobEstimates(resources, { projects, input, positions: queuePositions, targetLists });
  const jobEvents = new JobEventService(resources, {
    jobs,
    changes: jobChanges,
    view: jobView,
    monitorEvents: (job) => monitors.eventsOfJob(job),
    timing: { heartbeatMs: config.JOB_EVENTS_HEARTBEAT_MS, pollMs: config.JOB_EVENTS_POLL_MS, minReadGapMs: Math.min(200, config.JOB_EVENTS_POLL_MS) },
    maxStreamsPerOrganization: config.JOB_EVENTS_MAX_STREAMS_PER_ORG,
  });
  const exports = new JobExports(resources, { jobs, results, audit });
  const schedules = new ScheduleService(resources, {
    schedules: repositories.schedules,
    projects,
    jobs,
    input,
    audit,
    events,
    minIntervalMinutes: config.SCHEDULE_MIN_INTERVAL_MINUTES,
    budgets: repositories.scheduleBudgets,
  });
  const webhooks = new WebhookService(resources, {
    endpoints: repositories.endpoints,
    deliveries: repositories.deliveries,
    queue: openDeliveryQueue(context.queues),
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
    ...(options.webhooks ? { seams: options.webhooks } : {}),
  });
  const destinations = new Destinations(resources, {
    store,
    projects,
    jobs,
    results,
    audit,
    secretsKey: config.WEBHOOK_SECRETS_KEY ?? context.secrets.jwtSecret,
    rules: { requireHttps: config.WEBHOOK_REQUIRE_HTTPS, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    sinks: s3ObjectSink,
    seams: options.destinations,
  });
  const maintenance = new CatalogMaintenance(resources, {
    schedules,
    progress,
    settlement,
    webhooks,
    history,
    monitors,
    settings: { schedulerEnabled: config.SCHEDULER_ENABLED, requeueStaleAfterMs: config.REQUEUE_STALE_AFTER_MS },
  });
  const pageCache = new PageCacheStore(store, {
    maxEntries: config.PAGE_CACHE_MAX_ENTRIES,
    maxEntryBytes: config.PAGE_CACHE_MAX_ENTRY_BYTES,
    retentionMs: config.PAGE_CACHE_RETENTION_HOURS * 3_600_000,
    now: () => clock.now(),
  });
  await repositories.init({ clock, logger });
  await destinations.init();
  await pageCache.init();
  return {
    audit,
    projects,
    jobs,
    targetLists,
    progress,
    settlement,
    reconciliation,
    results,
    exports,
    schedules,
    events,
    webhooks,
    destinations,
    jobEvents,
    jobChanges,
    queuePositions,
    estimates,
    jobView,
    history,
    historyRecorder,
    monitors,
    maintenance,
    pageCache,
  };
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
