import type { Clock } from '@crawl/clock';
import type { HistoryService } from '../features/history/index.ts';
import type { JobSettlement, TargetProgress } from '../features/jobs/index.ts';
import type { Monitors } from '../features/monitors/index.ts';
import type { ScheduleService } from '../features/schedules/index.ts';
import type { Logger } from '../features/shared/ports.ts';
import type { CatalogResources } from '../features/shared/resources.ts';
import type { WebhookService } from '../features/webhooks/index.ts';

export interface MaintenanceSettings {
  /** SCHEDULER_ENABLED: this process fires due schedules and monitors' runs and confirmations. */
  schedulerEnabled: boolean;
  /** REQUEUE_STALE_AFTER_MS: open targets of jobs untouched this long are enqueued again. */
  requeueStaleAfterMs: number;
}

/**
 * Catalog's background work, which spans features: after a start, the open targets enqueued
 * again and the settlements retried; then, at every tick, due schedules and monitors fired (and
 * monitors' confirmations started and decided), leftovers settled, stale targets re-enqueued, old
 * webhook deliveries and change points of history pruned.
 */
/** The services whose background work the maintenance tick runs. */
interface MaintenanceParts {
  schedules: ScheduleService;
  progress: TargetProgress;
  settlement: JobSettlement;
  webhooks: WebhookService;
  history: HistoryService;
  monitors: Pick<Monitors, 'tick'>;
}

export class CatalogMaintenance {
  readonly #parts: MaintenanceParts;
  readonly #settings: MaintenanceSettings;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: MaintenanceParts & { settings: MaintenanceSettings }) {
    const { settings, ...services } = parts;
    this.#parts = services;
    this.#settings = settings;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  /**
   * The store survives a restart, the in-process queue does not: enqueue open targets again
   * (idempotent by task id), finish jobs whose targets all ended, retry settlements.
   */
  async recover(): Promise<void> {
    const requeued = await this.#parts.progress.requeueOpenTargets();
    await this.#parts.settlement.settleUnsettled();
    if (requeued > 0) this.#logger.info({ tasks: requeued }, 're-enqueued open targets of unfinished jobs');
  }

  /** One pass of background work: fire due schedules and monitors, settle leftovers, re-enqueue stale targets, prune deliveries and old history. */
  async tick(): Promise<void> {
    const { schedules, progress, settlement, webhooks, history, monitors } = this.#parts;
    if (this.#settings.schedulerEnabled) {
      await schedules.runDue();
      await monitors.tick();
    }
    await settlement.settleUnsettled();
    await progress.requeueOpenTargets({ untouchedSince: new Date(this.#clock.now().getTime() - this.#settings.requeueStaleAfterMs).toISOString() });
    await webhooks.prune();
    await history.prune();
  }
}
