import { createHash } from 'node:crypto';
import type { ClaimTargetResponse, ReportTargetBody, ReportTargetResponse } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { annotateLogContext } from '@crawl/logging';
import type { Clock } from '@crawl/clock';
import type { ResultStore } from '../results/index.ts';
import type { Logger, TargetResultsObserver } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { JobDispatch } from './job-dispatch.ts';
import { countTargets, isOpenTarget, isTerminalJob, type JobDoc } from './job-model.ts';
import type { JobRepository, TargetOutcome } from './job-repository.ts';
import type { JobSettlement } from './job-settlement.ts';
import { countFields } from './field-coverage.ts';

/** A report holding a target's lease longer than this is taken to have died with its writer. */
export const REPORT_LEASE_MS = 60_000;

/**
 * What a report says of its target beyond the rows: a failure's reason (and, when blocked, the kind
 * of page), a success's charge. Only what fits the status is kept: a `blockKind` on another
 * reason or an `uncharged` on a failure would show a target as something it is not. The message
 * says why a target failed or went uncharged; a charged success needs none.
 */
function outcomeOf(
  report: ReportTargetBody,
): Pick<TargetOutcome, 'status' | 'reason' | 'blockKind' | 'uncharged' | 'message' | 'coverage' | 'billableUnits' | 'cachedAt'> {
  const message = report.message !== undefined ? { message: report.message } : {};
  // How much was fetched is worth saying of a failure too (a sign-in wall after some pages).
  const coverage = report.coverage !== undefined ? { coverage: report.coverage } : {};
  if (report.status === 'success') {
    const units = {
      ...(report.billableUnits !== undefined ? { billableUnits: report.billableUnits } : {}),
      ...(report.cachedAt !== undefined ? { cachedAt: report.cachedAt } : {}),
    };
    return report.uncharged === undefined
      ? { status: 'success', ...coverage, ...units }
      : { status: 'success', uncharged: report.uncharged, ...message, ...coverage, ...units };
  }
  const reason = report.reason ?? 'upstream_error';
  const blockKind = reason === 'blocked' && report.blockKind !== undefined ? { blockKind: report.blockKind } : {};
  return { status: 'failed', reason, ...blockKind, ...message, ...coverage };
}

/** The same report retried (after a failure mid-way) gets the same token, so it gets back in. */
const reportToken = (report: ReportTargetBody): string => createHash('sha256').update(JSON.stringify(report)).digest('base64url');

/** The parts of the worker-facing side besides the shared resources. */
export interface TargetProgressParts {
  jobs: JobRepository;
  results: ResultStore;
  dispatch: JobDispatch;
  settlement: JobSettlement;
  /** Told of each successful target's stored records (history); absent, nobody follows them. */
  observer?: TargetResultsObserver;
}

/**
 * The worker-facing side: claim and report drive each target to a terminal state; the last one
 * finishes the job, and whoever finishes it settles it. Plus the restart/maintenance requeue.
 */
export class TargetProgress {
  readonly #jobs: JobRepository;
  readonly #results: ResultStore;
  readonly #dispatch: JobDispatch;
  readonly #settlement: JobSettlement;
  readonly #observer: TargetResultsObserver | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: TargetProgressParts) {
    this.#jobs = parts.jobs;
    this.#results = parts.results;
    this.#dispatch = parts.dispatch;
    this.#settlement = parts.settlement;
    this.#observer = parts.observer;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  async claimTarget(jobId: string, index: number): Promise<ClaimTargetResponse['data']> {
    const now = this.#now();
    const claimed = await this.#jobs.claimTarget(jobId, index, now);
    if (claimed) {
      annotateLogContext({ orgId: claimed.organizationId, jobId });
      // The first claim of a job sets its start (`$min`): that is when the job started.
      if (claimed.startedAt === now) this.#logger.info({ orgId: claimed.organizationId, jobId, targets: claimed.targets.length }, 'job started');
      return { proceed: true, jobStatus: claimed.status, targetStatus: 'running' };
    }
    const job = await this.#jobs.findById(jobId);
    const target = job?.targets[index];
    if (!job || !target) throw errors.notFound('Target');
    return { proceed: false, jobStatus: job.status, targetStatus: target.status };
  }

  /**
   * Applies a report exactly once (ADR 0004): take the target's report lease, write or clear its
   * rows, then move the target with the conditional update that also requires the lease. Of two
   * different reports at once only the lease holder touches rows; the other gets 409 while the
   * holder works (the worker tries again) and a no-op once the target has ended. A report for a
   * target that is no longer open changes nothing.
   */
  async reportTarget(jobId: string, index: number, report: ReportTargetBody): Promise<ReportTargetResponse['data']> {
    const job = await this.#jobs.findById(jobId);
    const target = job?.targets[index];
    if (!job || !target) throw errors.notFound('Target');
    if (isTerminalJob(job.status) || !isOpenTarget(target.status)) return { jobStatus: job.status, finished: isTerminalJob(job.status) };

    const token = reportToken(report);
    const leaseAt = this.#now();
    const leased = await this.#jobs.takeReportLease(jobId, index, token, leaseAt, new Date(Date.parse(leaseAt) - REPORT_LEASE_MS).toISOString());
    if (!leased) {
      const current = await this.#jobs.findById(jobId);
      const now = current?.targets[index];
      if (!current || !now || isTerminalJob(current.status) || !isOpenTarget(now.status)) {
        return { jobStatus: current?.status ?? job.status, finished: current ? isTerminalJob(current.status) : false };
      }
      throw errors.conflict('Another report for this target is being applied; send this one again shortly');
    }

    const items = report.status === 'success' ? report.items : [];
    if (items.length > 0) await this.#results.replaceTarget(jobId, index, items);
    else await this.#results.clearTarget(jobId, index);
    if (items.length > 0) await this.#observe(job, index, items);

    const now = this.#now();
    const updated = await this.#jobs.recordReport(
      jobId,
      index,
      { resultCount: items.length, ...(items.length > 0 ? { fieldCounts: countFields(job.type, items) } : {}), ...outcomeOf(report) },
      now,
      token,
    );
    if (!updated) {
      // Cancelled between the lease and the write: the rows written are ours, remove them. (A
      // lease taken over by another report leaves the rows to that report.)
      const current = await this.#jobs.findById(jobId);
      const ours = current?.targets[index];
      if (current && ours?.status === 'cancelled' && ours.reportToken === token) await this.#results.clearTarget(jobId, index);
      return { jobStatus: current?.status ?? job.status, finished: current ? isTerminalJob(current.status) : false };
    }
    const counts = countTargets(updated.targets);
    if (counts.open > 0) return { jobStatus: updated.status, finished: false };

    const finalStatus = counts.succeeded > 0 ? 'completed' : 'failed';
    const finished = await this.#jobs.finish(jobId, finalStatus, now);
    if (finished) await this.#settlement.afterTerminal(finished);
    const latest = finished ?? (await this.#jobs.findById(jobId));
    return { jobStatus: latest?.status ?? finalStatus, finished: true };
  }

  /**
   * Hands the stored records to the observer before the target moves on, under the report's
   * lease: a failure (a store fault) answers 503 and the worker sends the report again, which
   * gets back in with the same token and writes the same observations, counted once.
   */
  async #observe(job: JobDoc, index: number, records: ReportTargetBody['items']): Promise<void> {
    if (!this.#observer) return;
    try {
      await this.#observer.observe({
        organizationId: job.organizationId,
        jobId: job._id,
        jobType: job.type,
        config: { domain: job.config.domain, deliveryZip: job.config.deliveryZip },
        targetIndex: index,
        records,
        at: this.#now(),
      });
    } catch (error) {
      this.#logger.warn(
        { err: error, orgId: job.organizationId, jobId: job._id, targetIndex: index },
        'recording the observations of a report failed; the report is to be sent again',
      );
      throw errors.unavailable('The report could not be recorded in full; send it again');
    }
  }

  /** A last-resort finisher: a job whose targets are all terminal but that is still active. */
  async finishIfDone(jobId: string): Promise<void> {
    const job = await this.#jobs.findActive(jobId);
    if (job) await this.#finishIfAllDone(job);
  }

  async #finishIfAllDone(job: JobDoc): Promise<void> {
    const counts = countTargets(job.targets);
    if (counts.open > 0) return;
    const finished = await this.#jobs.finish(job._id, counts.succeeded > 0 ? 'completed' : 'failed', this.#now());
    if (finished) await this.#settlement.afterTerminal(finished);
  }

  /**
   * Re-enqueues every open target whenever the queue reports it lost its tasks (a Redis restart
   * without persistence, a flush): within a check interval, not after REQUEUE_STALE_AFTER_MS.
   * One pass at a time; a loss reported during a pass starts another after it.
   * @returns a function that stops the watching.
   */
  requeueWhenQueueLost(): () => void {
    let running: Promise<void> | undefined;
    let again = false;
    const pass = (): void => {
      if (running) {
        again = true;
        return;
      }
      running = this.requeueOpenTargets()
        .then((tasks) => this.#logger.info({ tasks }, 'the crawl queue lost its tasks: re-enqueued the open targets'))
        .catch((error: unknown) => this.#logger.error({ err: error }, 're-enqueueing open targets after a queue loss failed; the maintenance loop retries'))
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            pass();
          }
        });
    };
    return this.#dispatch.onLost(pass);
  }

  /** After a restart: the store kept the jobs, the in-process queue did not keep their tasks. */
  async requeueOpenTargets(options: { untouchedSince?: string } = {}): Promise<number> {
    let tasks = 0;
    for await (const job of this.#jobs.streamActive(options)) {
      const open = job.targets.filter((t) => isOpenTarget(t.status)).length;
      if (open === 0) {
        await this.finishIfDone(job._id);
        continue;
      }
      await this.#dispatch.enqueue(job, true);
      tasks += open;
    }
    return tasks;
  }
}
