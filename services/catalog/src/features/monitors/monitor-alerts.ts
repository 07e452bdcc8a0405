import type { ObservedChange } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { OutboxEvents } from '../events/index.ts';
import type { JobChanges } from '../shared/job-changes.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { CooldownRepository } from './cooldown-repository.ts';
import { cooldownId, monitorEventId, targetIndexOf } from './event-keys.ts';
import { toMonitorEventView, type MonitorEventDoc, type MonitorEventRepository } from './event-repository.ts';
import type { MonitorDoc } from './monitor-model.ts';
import type { MonitorRepository } from './monitor-repository.ts';
import { durationMinutes } from './monitor-timing.ts';
import { changePercent, type Firing } from './rule-evaluation.ts';

export interface MonitorAlertParts {
  events: MonitorEventRepository;
  cooldowns: CooldownRepository;
  monitors: MonitorRepository;
  /** `monitor.triggered` goes to webhooks through the outbox. */
  outbox: OutboxEvents;
  /** Wakes the event streams of the job the event is about. */
  changes: Pick<JobChanges, 'publish'>;
}

/** A confirmed firing: the change as the re-crawl found it, and the confirmation job. */
export interface Confirmed {
  shown: ObservedChange;
  confirmedBy: { jobId: string; at: string };
}

/**
 * Fires a rule: once per cooldown (per rule and subject field), once per event id. The event is
 * stored (listed at /monitors/:id/events and on the job's stream), written to the outbox for the
 * webhooks, and the job's streams are woken. Applying the same firing again (a retried report, a
 * decision taken over) writes nothing twice.
 */
export class MonitorAlerts {
  readonly #parts: MonitorAlertParts;
  readonly #clock: Clock;

  constructor(resources: CatalogResources, parts: MonitorAlertParts) {
    this.#parts = parts;
    this.#clock = resources.clock;
  }

  /** The time before which a rule's last firing no longer keeps it quiet. */
  #quietSince(monitor: MonitorDoc, now: Date): string | undefined {
    const minutes = durationMinutes(monitor.cooldown) ?? 0;
    return minutes > 0 ? new Date(now.getTime() - minutes * 60_000).toISOString() : undefined;
  }

  /** Whether the rule is in its cooldown for this change (nothing is taken). */
  async inCooldown(monitor: MonitorDoc, firing: Firing): Promise<boolean> {
    const quietSince = this.#quietSince(monitor, this.#clock.now());
    return quietSince !== undefined && this.#parts.cooldowns.isRunning(cooldownId(monitor._id, firing.rule, firing.change), quietSince);
  }

  /** @returns the event, or null when the cooldown kept the rule quiet. */
  async fire(monitor: MonitorDoc, firing: Firing, confirmed?: Confirmed): Promise<MonitorEventDoc | null> {
    const { events, cooldowns, monitors, outbox, changes } = this.#parts;
    const now = this.#clock.now();
    const at = now.toISOString();
    const id = monitorEventId(monitor._id, firing.rule, firing.change);
    const quietSince = this.#quietSince(monitor, now);
    if (quietSince !== undefined && !(await cooldowns.take(cooldownId(monitor._id, firing.rule, firing.change), monitor._id, id, at, quietSince))) return null;
    const shown = confirmed?.shown ?? firing.change;
    const doc: MonitorEventDoc = {
      _id: id,
      type: 'monitor.triggered',
      monitorId: monitor._id,
      projectId: monitor.projectId,
      organizationId: monitor.organizationId,
      target: firing.target,
      subject: firing.change.subject,
      field: firing.change.field,
      rule: firing.rule,
      previous: firing.change.previous,
      current: shown.current,
      changePercent: changePercent(firing.change.previous, shown.current),
      previousObservedAt: firing.change.previousObservedAt,
      observedAt: shown.observedAt,
      jobId: shown.jobId,
      resultId: shown.resultId,
      confirmedBy: confirmed?.confirmedBy ?? null,
      createdAt: at,
      targetIndex: targetIndexOf(shown) ?? 0,
    };
    // Stored first, then announced: a failure between them is repaired by applying the firing again (both are once per id).
    const stored = (await events.insertOnce(doc)) ? doc : ((await events.findById(id)) ?? doc);
    await outbox.monitorTriggered(toMonitorEventView(stored));
    await monitors.recordTriggered(monitor._id, stored.createdAt);
    changes.publish(stored.jobId);
    return stored;
  }
}
