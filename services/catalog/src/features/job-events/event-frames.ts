import type { JobEventName, JobProgress } from '@crawl/contracts';
import { isTerminalJob, type JobDoc, type TargetDoc } from '../jobs/index.ts';

/** One event of the stream before it is written: `data` is serialized as one line of JSON. */
export interface EventFrame {
  id: number;
  event: JobEventName;
  data: unknown;
}

/** `id:`, `event:`, `data:` and the blank line that ends an event (JSON never holds a newline). */
export function formatFrame(frame: EventFrame): string {
  return `id: ${frame.id}\nevent: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

/** A target that ended on a worker's report (a cancelled one ends with its job and gets no event of its own). */
export const isReported = (target: TargetDoc): boolean => target.status === 'success' || target.status === 'failed';

/**
 * The job's history as the store can tell it: the first claim, each reported target in the order
 * they finished (index breaks ties), the terminal status. Event ids number these steps from 1,
 * so any replica can tell from the job document alone what followed a `Last-Event-ID`.
 */
export function reportedInOrder(job: JobDoc): number[] {
  return job.targets
    .flatMap((target, index) => (isReported(target) ? [index] : []))
    .sort((a, b) => {
      const at = job.targets[a]?.finishedAt ?? '';
      const bt = job.targets[b]?.finishedAt ?? '';
      return at < bt ? -1 : at > bt ? 1 : a - b;
    });
}

/** The number of steps the job has taken: the id of its latest event. */
export function stepsTaken(job: JobDoc): number {
  return (job.startedAt ? 1 : 0) + reportedInOrder(job).length + (isTerminalJob(job.status) ? 1 : 0);
}

export interface FrameViews {
  /** The Job as `GET /jobs/:id` shows it (with `queue` while active). */
  job(job: JobDoc): Promise<unknown>;
  /** Target `index` as it appears in the Job's `targets`. */
  target(job: JobDoc, index: number): unknown;
}

/** Where one stream stands: what it has told its client so far. */
export class StreamCursor {
  lastId = 0;
  #started = false;
  #ended = false;
  readonly #told = new Set<number>();
  #done = 0;
  #failed = 0;

  get ended(): boolean {
    return this.#ended;
  }

  /** A fresh stream: the job as it is (one `job` event), plus `end` when it is already over. */
  async snapshot(job: JobDoc, views: FrameViews): Promise<EventFrame[]> {
    this.lastId = stepsTaken(job);
    this.#started = job.startedAt !== undefined;
    for (const index of reportedInOrder(job)) this.#count(job, index);
    const frames: EventFrame[] = [{ id: this.lastId, event: 'job', data: await views.job(job) }];
    if (isTerminalJob(job.status)) frames.push(this.#end(job, frames[0]?.data));
    return frames;
  }

  /**
   * A client back with `Last-Event-ID: after`: the steps after it, rebuilt from the job (a status
   * step shows the job as it is now). Null when the id cannot be from this job's stream (then the
   * caller starts afresh); an empty list when nothing followed it.
   */
  async resume(job: JobDoc, after: number, views: FrameViews): Promise<EventFrame[] | null> {
    const taken = stepsTaken(job);
    const terminal = isTerminalJob(job.status);
    if (!Number.isSafeInteger(after) || after < 0 || after > taken + (terminal ? 1 : 0)) return null;
    const frames: EventFrame[] = [];
    let step = 0;
    let view: unknown;
    const jobView = async () => (view ??= await views.job(job));
    if (job.startedAt !== undefined) {
      step += 1;
      this.#started = true;
      if (step > after) frames.push({ id: step, event: 'job', data: await jobView() });
    }
    for (const index of reportedInOrder(job)) {
      step += 1;
      this.#count(job, index);
      if (step > after) frames.push(this.#targetFrame(step, job, index, views));
    }
    if (terminal) {
      step += 1;
      if (step > after) frames.push({ id: step, event: 'job', data: await jobView() });
      if (step + 1 > after) frames.push(this.#end(job, await jobView(), step + 1));
      this.#ended = true;
    }
    this.lastId = Math.max(after, step + (terminal ? 1 : 0));
    return frames;
  }

  /** What changed since the last frames: the first claim, newly reported targets, the end. */
  async advance(job: JobDoc, views: FrameViews): Promise<EventFrame[]> {
    if (this.#ended) return [];
    const frames: EventFrame[] = [];
    if (!this.#started && job.startedAt !== undefined) {
      this.#started = true;
      frames.push({ id: ++this.lastId, event: 'job', data: await views.job(job) });
    }
    for (const index of reportedInOrder(job)) {
      if (this.#told.has(index)) continue;
      this.#count(job, index);
      frames.push(this.#targetFrame(++this.lastId, job, index, views));
    }
    if (isTerminalJob(job.status)) {
      const view = await views.job(job);
      frames.push({ id: ++this.lastId, event: 'job', data: view });
      frames.push(this.#end(job, view));
    }
    return frames;
  }

  #count(job: JobDoc, index: number): void {
    if (this.#told.has(index)) return;
    this.#told.add(index);
    if (job.targets[index]?.status === 'success') this.#done += 1;
    else this.#failed += 1;
  }

  #progress(job: JobDoc): JobProgress {
    const total = job.targets.length;
    return { total, done: this.#done, failed: this.#failed, pending: Math.max(0, total - this.#done - this.#failed) };
  }

  #targetFrame(id: number, job: JobDoc, index: number, views: FrameViews): EventFrame {
    return { id, event: 'target', data: { jobId: job._id, index, target: views.target(job, index), progress: this.#progress(job) } };
  }

  #end(job: JobDoc, view: unknown, id = this.lastId + 1): EventFrame {
    this.#ended = true;
    this.lastId = Math.max(this.lastId, id);
    return { id, event: 'end', data: view ?? job };
  }
}
