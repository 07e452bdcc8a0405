import type { MonitorEvent, ObservedChange } from '@crawl/contracts';
import type { AuditLog } from '../audit/index.ts';
import type { OutboxEvents } from '../events/index.ts';
import type { JobDoc, JobInput, JobLifecycle, TargetListSource } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { ResultStore } from '../results/index.ts';
import type { JobChanges } from '../shared/job-changes.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { ConfirmationRepository } from './confirmation-repository.ts';
import type { CooldownRepository } from './cooldown-repository.ts';
import { toMonitorEventView, type MonitorEventRepository } from './event-repository.ts';
import { MonitorAlerts } from './monitor-alerts.ts';
import { MonitorConfirmations } from './monitor-confirmations.ts';
import { MonitorDefinitions } from './monitor-definition.ts';
import type { MonitorRepository } from './monitor-repository.ts';
import { MonitorRunner } from './monitor-runner.ts';
import { MonitorService } from './monitor-service.ts';
import { MonitorTriggers, type ReportedTarget } from './monitor-triggers.ts';
import type { MonitorRunRepository } from './run-repository.ts';

/** The parts of monitors besides the shared resources. */
export interface MonitorParts {
  monitors: MonitorRepository;
  runs: MonitorRunRepository;
  events: MonitorEventRepository;
  cooldowns: CooldownRepository;
  confirmations: ConfirmationRepository;
  projects: ProjectService;
  /** Runs are ordinary jobs; a confirmation's job is read when it has ended. */
  jobs: Pick<JobLifecycle, 'create' | 'getOwned'>;
  /** A monitor's targets, storefront and delivery location follow the job rules. */
  input: JobInput;
  /** Where `targetListId` finds its targets (the target-lists feature). */
  targetLists?: TargetListSource | undefined;
  /** A confirmation job's records. */
  results: Pick<ResultStore, 'items'>;
  audit: AuditLog;
  /** `monitor.triggered` and `monitor.paused` go to webhooks through the outbox. */
  outbox: OutboxEvents;
  /** Wakes the event streams of a job a monitor event is about. */
  changes: Pick<JobChanges, 'publish'>;
}

/** What one maintenance pass of monitors did. */
export interface MonitorTick {
  ran: string[];
  resumed: number;
  confirmationsStarted: number;
  confirmationsDecided: number;
}

/**
 * Monitors, assembled: `service` (the API's operations), `runner` (runs and the budget),
 * `evaluate` (rules on the changes history reports for a monitor's job), confirmations, and the
 * events a monitor's job has for its live stream.
 */
export class Monitors {
  readonly service: MonitorService;
  readonly runner: MonitorRunner;
  readonly #triggers: MonitorTriggers;
  readonly #confirmations: MonitorConfirmations;
  readonly #events: MonitorEventRepository;

  constructor(resources: CatalogResources, parts: MonitorParts) {
    const { monitors, runs, events, cooldowns, confirmations, audit, outbox } = parts;
    this.#events = events;
    this.service = new MonitorService(resources, {
      monitors,
      events,
      cooldowns,
      confirmations,
      runs,
      definitions: new MonitorDefinitions({ input: parts.input }),
      projects: parts.projects,
      audit,
      targetLists: parts.targetLists,
    });
    this.runner = new MonitorRunner(resources, { monitors, runs, jobs: parts.jobs, audit, outbox });
    const alerts = new MonitorAlerts(resources, { events, cooldowns, monitors, outbox, changes: parts.changes });
    this.#confirmations = new MonitorConfirmations(resources, {
      confirmations,
      monitors,
      runner: this.runner,
      alerts,
      jobs: parts.jobs,
      results: parts.results,
    });
    this.#triggers = new MonitorTriggers({ monitors, runs, alerts, confirmations: this.#confirmations });
  }

  /** The rules on a successful target's changes (after history recorded them); a job of no monitor costs nothing more. */
  evaluate(target: ReportedTarget, changes: readonly ObservedChange[]): Promise<void> {
    return this.#triggers.evaluate(target, changes);
  }

  /** A job ended: a confirmation's is decided at once. */
  jobFinished(jobId: string): Promise<void> {
    return this.#triggers.jobFinished(jobId);
  }

  /** The events a monitor's job read the values of, oldest first, with the target each is about (its live stream). */
  async eventsOfJob(job: Pick<JobDoc, '_id' | 'monitorId'>): Promise<Array<{ targetIndex: number; event: MonitorEvent }>> {
    if (!job.monitorId) return [];
    return (await this.#events.forJob(job._id)).map((doc) => ({ targetIndex: doc.targetIndex, event: toMonitorEventView(doc) }));
  }

  /** One pass: budget pauses whose month is over, due runs, confirmations to start and to decide. */
  async tick(): Promise<MonitorTick> {
    const resumed = await this.runner.resumeBudgetPaused();
    const ran = await this.runner.runDue();
    const confirmationsStarted = await this.#confirmations.startPending();
    const confirmationsDecided = await this.#confirmations.decideFinished();
    return { ran, resumed, confirmationsStarted, confirmationsDecided };
  }
}
