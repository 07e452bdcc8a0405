import type { JobEventName, JobProgress, MonitorEvent } from '@crawl/contracts';
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

/** A monitor event of a monitor's job, and the target it is about. */
export interface JobMonitorEvent {
  targetIndex: number;
  event: MonitorEvent;
}

export interface FrameViews {
  /** The Job as `GET /jobs/:id` shows it (with `queue` while active). */
  job(job: JobDoc): Promise<unknown>;
  /** Target `index` as it appears in the Job's `targets`. */
  target(job: JobDoc, index: number): unknown;
  /** The monitor events of the job so far, oldest first (none unless it is a monitor's run). */
  monitorEvents(job: JobDoc): Promise<readonly JobMonitorEvent[]>;
}

/** A job's monitor events by the target they are about. */
function byTarget(events: readonly JobMonitorEvent[]): Map<number, MonitorEvent[]> {
  const grouped = new Map<number, MonitorEvent[]>();
  for (const { targetIndex, event } of events) grouped.set(targetIndex, [...(grouped.get(targetIndex) ?? []), event]);
  return grouped;
}

/**
 * Where one stream stands: what it has told its client so far. A `monitor` event follows the
 * `target` event of its target and repeats its id (or, arriving later, the latest id): monitor
 * events are not steps of the job, so the numbering stays the job document's own (ADR 0013).
 */
export class StreamCursor {
  lastId = 0;
  #started = false;
  #ended = false;
  readonly #told = new Set<number>();
  readonly #toldMonitor = new Set<string>();
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
    // As with targets, a snapshot tells the state, not the past: earlier monitor events are listed at /monitors/:id/events.
    for (const { event } of await views.monitorEvents(job)) this.#toldMonitor.add(event.id);
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
    const monitorEvents = byTarget(await views.monitorEvents(job));
    if (job.startedAt !== undefined) {
      step += 1;
      this.#started = true;
      if (step > after) frames.push({ id: step, event: 'job', data: await jobView() });
    }
    for (const index of reportedInOrder(job)) {
      step += 1;
      this.#count(job, index);
      if (step > after) frames.push(this.#targetFrame(step, job, index, views));
      // Those of a step the client had are taken as told with it.
      for (const event of monitorEvents.get(index) ?? []) {
        this.#toldMonitor.add(event.id);
        if (step > after) frames.push({ id: step, event: 'monitor', data: event });
      }
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
    const monitorEvents = byTarget(await views.monitorEvents(job));
    if (!this.#started && job.startedAt !== undefined) {
      this.#started = true;
      frames.push({ id: ++this.lastId, event: 'job', data: await views.job(job) });
    }
    for (const index of reportedInOrder(job)) {
      if (this.#told.has(index)) continue;
      this.#count(job, index);
      frames.push(this.#targetFrame(++this.lastId, job, index, views));
      frames.push(...this.#monitorFrames(monitorEvents.get(index)));
    }
    // A monitor event goes out once the client knows its target (events are recorded just before
    // the target's report lands); one recorded after that follows at the next read.
    for (const [index, events] of monitorEvents) {
      if (this.#told.has(index)) frames.push(...this.#monitorFrames(events));
    }
    if (isTerminalJob(job.status)) {
      const view = await views.job(job);
      frames.push({ id: ++this.lastId, event: 'job', data: view });
      frames.push(this.#end(job, view));
    }
    return frames;
  }

  /** The events not told yet, under the latest id. */
  #monitorFrames(events: readonly MonitorEvent[] | undefined): EventFrame[] {
    const frames: EventFrame[] = [];
    for (const event of events ?? []) {
      if (this.#toldMonitor.has(event.id)) continue;
      this.#toldMonitor.add(event.id);
      frames.push({ id: this.lastId, event: 'monitor', data: event });
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
