import type { Clock } from '@crawl/clock';
import type { DocumentStore } from '@crawl/storage';
import { AuditRepository } from './features/audit/index.ts';
import { OutboxRepository } from './features/events/index.ts';
import { ObservationRepository } from './features/history/index.ts';
import { AbandonedJobRepository, JobRepository } from './features/jobs/index.ts';
import { ConfirmationRepository, CooldownRepository, MonitorEventRepository, MonitorRepository, MonitorRunRepository } from './features/monitors/index.ts';
import { ProjectRepository } from './features/projects/index.ts';
import { ResultRepository } from './features/results/index.ts';
import { ScheduleBudgetRepository, ScheduleRepository } from './features/schedules/index.ts';
import type { JobChanges } from './features/shared/job-changes.ts';
import { TargetListRepository } from './features/target-lists/index.ts';
import type { Logger } from './features/shared/ports.ts';
import { DeliveryRepository, EndpointRepository } from './features/webhooks/index.ts';

/**
 * Every repository of the catalog database, each built once over the store and handed to the
 * services that use it: one JobRepository (announcing each change of a job on `changes`) for
 * the lifecycle, the progress, the settlement, the reconciler's questions and the queue positions.
 */
export class CatalogRepositories {
  readonly audit: AuditRepository;
  readonly projects: ProjectRepository;
  readonly jobs: JobRepository;
  readonly abandonedJobs: AbandonedJobRepository;
  readonly results: ResultRepository;
  readonly schedules: ScheduleRepository;
  readonly scheduleBudgets: ScheduleBudgetRepository;
  readonly outbox: OutboxRepository;
  readonly endpoints: EndpointRepository;
  readonly deliveries: DeliveryRepository;
  readonly observations: ObservationRepository;
  readonly monitors: MonitorRepository;
  readonly monitorRuns: MonitorRunRepository;
  readonly monitorEvents: MonitorEventRepository;
  readonly monitorCooldowns: CooldownRepository;
  readonly monitorConfirmations: ConfirmationRepository;
  readonly targetLists: TargetListRepository;

  constructor(store: DocumentStore, changes: Pick<JobChanges, 'publish'>) {
    this.audit = new AuditRepository(store);
    this.projects = new ProjectRepository(store);
    this.jobs = new JobRepository(store, changes);
    this.abandonedJobs = new AbandonedJobRepository(store);
    this.results = new ResultRepository(store);
    this.schedules = new ScheduleRepository(store);
    this.scheduleBudgets = new ScheduleBudgetRepository(store);
    this.outbox = new OutboxRepository(store);
    this.endpoints = new EndpointRepository(store);
    this.deliveries = new DeliveryRepository(store);
    this.observations = new ObservationRepository(store);
    this.monitors = new MonitorRepository(store);
    this.monitorRuns = new MonitorRunRepository(store);
    this.monitorEvents = new MonitorEventRepository(store);
    this.monitorCooldowns = new CooldownRepository(store);
    this.monitorConfirmations = new ConfirmationRepository(store);
    this.targetLists = new TargetListRepository(store);
  }

  /** Indexes and one-time migrations of every repository, then the per-project job counts (below). */
  async init(options: { clock: Clock; logger: Logger }): Promise<void> {
    await Promise.all([
      this.audit.init(),
      this.projects.init(),
      this.results.init(),
      this.schedules.init(),
      this.outbox.init(),
      this.endpoints.init(),
      this.deliveries.init(),
      this.observations.init(),
      this.monitors.init(),
      this.monitorRuns.init(),
      this.monitorEvents.init(),
      this.monitorCooldowns.init(),
      this.monitorConfirmations.init(),
      this.targetLists.init(),
      this.#initJobs(options),
    ]);
  }

  /**
   * The first start on data from before the per-project job counts seeds them before serving (a
   * create must not increment a missing figure); later starts only repair what a crash may have
   * left one short, in the background, so a large catalog starts at once.
   */
  async #initJobs({ clock, logger }: { clock: Clock; logger: Logger }): Promise<void> {
    await this.jobs.init();
    if (!(await this.jobs.countsSeeded())) {
      await this.jobs.reconcileCounts(this.projects.streamAll());
      await this.jobs.markCountsSeeded(clock.now().toISOString());
      return;
    }
    void this.jobs.reconcileCounts(this.projects.streamAll()).catch((error: unknown) => {
      logger.warn({ err: error }, 'reconciling the per-project job counts failed; the next start tries again');
    });
  }
}
