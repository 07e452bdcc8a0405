import type { CrawlTask, JobEstimateQueue, JobQueue } from '@crawl/contracts';
import type { WorkQueue } from '@crawl/queue';
import { crawlTaskId, isTerminalJob, type JobDoc, type JobRepository } from '../jobs/index.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { ThroughputMeter } from './throughput-meter.ts';

/** Pending targets asked about at each end of a job before giving up (they may be out for a retry). */
const PROBES = 3;
/** An organization's line is read again after this long (reads of a polled job share it). */
const LINE_TTL_MS = 1_000;
/**
 * A job's estimate is reused this long while the job document is unchanged: a job polled by many
 * clients costs the queue a few questions a second, not a few per read (the numbers move at the
 * dispatcher's pace; the ETA is whole seconds anyway).
 */
const ESTIMATE_TTL_MS = 1_000;

/** A job's place in line and when its last target should be done (epoch ms; null while unknown). */
type Estimate = Omit<JobQueue, 'etaSeconds'> & { finishAt: number | null };

const hasPending = (job: JobDoc): boolean => job.targets.some((target) => target.status === 'pending');

/**
 * Where a queued or running job stands (docs/catalog.md, Queue position): its place in its
 * organization's line, the tasks the fair dispatcher hands out before its next target (the
 * dispatcher's own order, exact at the moment of asking), and an ETA from the dispatcher's order
 * up to its last target and the measured throughput.
 */
export class QueuePositions {
  readonly #queue: WorkQueue<CrawlTask>;
  readonly #jobs: Pick<JobRepository, 'activeLine'>;
  readonly #meter: ThroughputMeter;
  readonly #logger: Logger;
  readonly #lines = new Map<string, { at: number; jobs: Promise<JobDoc[]> }>();
  readonly #estimates = new Map<string, { at: number; version: string; estimate: Promise<Estimate> }>();

  /** @param parts.meter the throughput reading (default: the crawl queue's finished and active tasks). */
  constructor(resources: CatalogResources, parts: { queue: WorkQueue<CrawlTask>; jobs: Pick<JobRepository, 'activeLine'>; meter?: ThroughputMeter }) {
    this.#queue = parts.queue;
    this.#jobs = parts.jobs;
    this.#logger = resources.logger;
    this.#meter =
      parts.meter ??
      new ThroughputMeter(async () => {
        const stats = await parts.queue.stats();
        return { processed: stats.completed + stats.failed, active: stats.active };
      });
  }

  /** Undefined for a finished job, and when the queue cannot be asked (the job reads without it). */
  async of(job: JobDoc): Promise<JobQueue | undefined> {
    if (isTerminalJob(job.status)) return undefined;
    try {
      const { finishAt, ...place } = await this.#recentEstimate(job);
      // A reused estimate counts down from when it was made, not from when it is read.
      return { ...place, etaSeconds: finishAt === null ? null : Math.max(0, Math.round((finishAt - Date.now()) / 1_000)) };
    } catch (error) {
      this.#logger.warn({ err: error, jobId: job._id }, 'estimating the queue position failed; the job is shown without it');
      return undefined;
    }
  }

  /**
   * Where a job of `targetCount` targets would wait if created now (a job estimate): behind the
   * organization's jobs with waiting targets, and at most behind every task waiting now (the fair
   * dispatcher may hand its targets out sooner). Its ETA covers those tasks and its own.
   */
  async forNewJob(organizationId: string, targetCount: number): Promise<JobEstimateQueue> {
    const [line, stats, throughput] = await Promise.all([this.#line(organizationId), this.#queue.stats(), this.#meter.current()]);
    const targetsAhead = stats.waiting;
    const etaSeconds =
      throughput.perSecond && throughput.perSecond > 0
        ? Math.max(0, Math.round((targetsAhead + targetCount + throughput.active) / throughput.perSecond))
        : null;
    return { position: line.filter(hasPending).length + 1, targetsAhead, etaSeconds };
  }

  #recentEstimate(job: JobDoc): Promise<Estimate> {
    const now = Date.now();
    const version = String(job.updatedAt);
    const cached = this.#estimates.get(job._id);
    if (cached && cached.version === version && now - cached.at < ESTIMATE_TTL_MS) return cached.estimate;
    for (const [id, entry] of this.#estimates) if (now - entry.at >= ESTIMATE_TTL_MS) this.#estimates.delete(id);
    const estimate = this.#estimate(job);
    this.#estimates.set(job._id, { at: now, version, estimate });
    estimate.catch(() => this.#estimates.delete(job._id));
    return estimate;
  }

  async #estimate(job: JobDoc): Promise<Estimate> {
    const pending = job.targets.flatMap((target, index) => (target.status === 'pending' ? [index] : []));
    const open = pending.length + job.targets.filter((target) => target.status === 'running').length;
    const [line, first, last, throughput] = await Promise.all([
      this.#line(job.organizationId),
      this.#firstWaiting(job, pending),
      this.#firstWaiting(job, [...pending].reverse()),
      this.#meter.current(),
    ]);
    const ahead = line.filter((other) => other._id !== job._id && hasPending(other) && isOlder(other, job)).length;
    const targetsAhead = first ?? 0;
    // Tasks handed out up to this job's last waiting target (it included); without an answer for
    // it, its pending targets counted after the first.
    const untilLast = pending.length === 0 ? 0 : (last ?? targetsAhead + pending.length - 1) + 1;
    const finishAt =
      open === 0
        ? Date.now()
        : throughput.perSecond && throughput.perSecond > 0
          ? Date.now() + ((untilLast + throughput.active) / throughput.perSecond) * 1_000
          : null;
    return { position: ahead + 1, targetsAhead, finishAt };
  }

  /** The queue position of the first of `indexes` (in that order) that is waiting, within PROBES tries. */
  async #firstWaiting(job: JobDoc, indexes: number[]): Promise<number | undefined> {
    for (const index of indexes.slice(0, PROBES)) {
      const position = await this.#queue.position(crawlTaskId(job._id, index));
      if (position !== undefined) return position;
    }
    return undefined;
  }

  #line(organizationId: string): Promise<JobDoc[]> {
    const now = Date.now();
    const cached = this.#lines.get(organizationId);
    if (cached && now - cached.at < LINE_TTL_MS) return cached.jobs;
    for (const [org, entry] of this.#lines) if (now - entry.at >= LINE_TTL_MS) this.#lines.delete(org);
    const jobs = this.#jobs.activeLine(organizationId);
    this.#lines.set(organizationId, { at: now, jobs });
    jobs.catch(() => this.#lines.delete(organizationId));
    return jobs;
  }
}

function isOlder(a: JobDoc, b: JobDoc): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a._id < b._id);
}
