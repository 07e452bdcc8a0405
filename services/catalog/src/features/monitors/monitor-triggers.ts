import type { ObservedChange, ResultRecord } from '@crawl/contracts';
import type { TargetResults } from '../shared/ports.ts';
import { recordSeqOf } from './event-keys.ts';
import type { MonitorAlerts } from './monitor-alerts.ts';
import type { MonitorConfirmations } from './monitor-confirmations.ts';
import type { MonitorRepository } from './monitor-repository.ts';
import { evaluateRules, type Firing } from './rule-evaluation.ts';
import type { MonitorRunRepository } from './run-repository.ts';

export interface MonitorTriggerParts {
  monitors: MonitorRepository;
  runs: MonitorRunRepository;
  alerts: MonitorAlerts;
  confirmations: MonitorConfirmations;
}

/** What the triggers read of a report: its job and target, and the records it stored. */
export type ReportedTarget = Pick<TargetResults, 'jobId' | 'targetIndex' | 'records'>;

/** A record that says nothing trustworthy: a field the job required is missing, or the delivery location is not the one asked for. */
const unsound = (record: ResultRecord | undefined): boolean =>
  record === undefined || record.quality?.status === 'partial' || record.location?.verified === false;

/** The ASIN a product record was asked for, when its page showed another. */
function requestedAsinOf(record: ResultRecord | undefined): string | undefined {
  const requested = record && 'requestedAsin' in record ? record.requestedAsin : undefined;
  return typeof requested === 'string' ? requested : undefined;
}

/**
 * Whether a change may fire: read from a sound record (an absence, from a target whose records
 * are all sound). History writes nothing for blocked or failed pages; this keeps a partial or
 * unverified page from firing whatever it reported.
 */
function fromSoundRecords(target: ReportedTarget, change: ObservedChange): boolean {
  const seq = recordSeqOf(change);
  if (seq !== undefined) return !unsound(target.records[seq]);
  return !target.records.some(unsound);
}

/**
 * Evaluates a monitor's rules on the changes history reports for its jobs: called after each
 * successful target's observations (`monitors.evaluate` in catalog.ts). Reports of other jobs cost
 * nothing when they changed nothing, and one read by key when they did.
 */
export class MonitorTriggers {
  readonly #parts: MonitorTriggerParts;

  constructor(parts: MonitorTriggerParts) {
    this.#parts = parts;
  }

  async evaluate(target: ReportedTarget, changes: readonly ObservedChange[]): Promise<void> {
    if (changes.length === 0) return;
    const { runs, monitors, alerts, confirmations } = this.#parts;
    const run = await runs.find(target.jobId);
    if (!run) return;
    if (run.kind === 'confirmation') {
      // Decided when the confirmation job has ended (its target's outcome is not known yet).
      if (run.confirmationId) await confirmations.observe(run.confirmationId, changes);
      return;
    }
    const monitor = await monitors.findById(run.monitorId);
    if (!monitor) return;
    const requested = (change: ObservedChange) => requestedAsinOf(target.records[recordSeqOf(change) ?? -1]);
    const firings = evaluateRules(monitor, { _id: target.jobId }, changes, requested).filter((firing) => fromSoundRecords(target, firing.change));
    const toConfirm: Firing[] = [];
    for (const firing of firings) {
      if (!firing.rule.confirm) await alerts.fire(monitor, firing);
      else if (!(await alerts.inCooldown(monitor, firing))) toConfirm.push(firing);
    }
    await confirmations.request(monitor, { jobId: target.jobId, targetIndex: target.targetIndex }, toConfirm);
  }

  /** A job ended: a confirmation is decided at once (the tick would decide it later). */
  async jobFinished(jobId: string): Promise<void> {
    const run = await this.#parts.runs.find(jobId);
    if (run?.kind === 'confirmation' && run.confirmationId) await this.#parts.confirmations.onJobFinished(run.confirmationId);
  }
}
