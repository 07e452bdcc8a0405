import { sleep } from '../http/retry-policy.ts';
import { isTerminal, type Job, type JobProgress } from '../types.ts';
import { progressOf } from '../variants.ts';
import { type JobEvent, JobEventsInterruptedError, JobEventsUnavailableError } from './job-events.ts';

export interface JobUpdate {
  job: Job;
  progress: JobProgress;
  /** The event that brought the update; undefined when it came from polling. */
  event?: JobEvent;
  /** How the update arrived. */
  source: 'events' | 'polling';
}

export interface WaitOptions {
  /** Called on every change: the job's status, a target ending, the queue position. */
  onProgress?: (update: JobUpdate) => void;
  signal?: AbortSignal;
  /** Give up (rejecting with a TimeoutError) after this long. Default: no limit. */
  timeoutMs?: number;
  /** `false` skips the event stream and polls. Default true. */
  events?: boolean;
  /** Between polls, when polling. Default 1 s. */
  pollIntervalMs?: number;
}

export interface WaitSources {
  events(signal: AbortSignal | undefined): AsyncIterable<JobEvent>;
  get(signal: AbortSignal | undefined): Promise<Job>;
}

/**
 * Resolves with the job once it is completed, failed or cancelled. Follows the event stream and
 * falls back to polling `GET /jobs/:id` when the server has no stream or it keeps breaking. A
 * failed job resolves too: look at `status`.
 */
export async function waitForJob(sources: WaitSources, options: WaitOptions = {}): Promise<Job> {
  const signal = combine(options.signal, options.timeoutMs);
  let job: Job | undefined;
  if (options.events !== false) {
    try {
      for await (const event of sources.events(signal)) {
        // A monitor's event says what a rule saw, not how far the job is: `jobs.events` has them.
        if (event.type === 'monitor') continue;
        let progress: JobProgress;
        if (event.type === 'target') {
          if (!job) continue;
          const targets = [...job.targets];
          targets[event.index] = event.target;
          job = { ...job, targets };
          progress = event.progress;
        } else {
          job = event.job;
          progress = progressOf(job);
        }
        options.onProgress?.({ job, progress, event, source: 'events' });
        if (event.type === 'end') return job;
      }
    } catch (error) {
      if (!(error instanceof JobEventsUnavailableError || error instanceof JobEventsInterruptedError)) throw error;
    }
  }
  let last = '';
  for (;;) {
    job = await sources.get(signal);
    const progress = progressOf(job);
    const fingerprint = JSON.stringify([job.status, progress, job.queue]);
    if (fingerprint !== last) {
      last = fingerprint;
      options.onProgress?.({ job, progress, source: 'polling' });
    }
    if (isTerminal(job.status)) return job;
    await sleep(options.pollIntervalMs ?? 1000, signal);
  }
}

function combine(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
