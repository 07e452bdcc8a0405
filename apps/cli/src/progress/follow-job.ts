import type { CrawlClient, Job, JobProgress, JobUpdate } from '@crawl/sdk';
import cliProgress from 'cli-progress';
import type { Output } from '../output/output.ts';
import { formatDuration } from '../output/format.ts';

export interface FollowOptions {
  timeoutMs?: number;
}

/**
 * Waits for the job like `jobs.wait`, showing targets done and failed against the total with an
 * ETA: on a terminal as a live bar (stderr), elsewhere as one line per status change.
 */
export async function followJob(client: CrawlClient, output: Output, jobId: string, options: FollowOptions = {}): Promise<Job> {
  const view = output.interactive ? new JobBar(output) : new JobLines(output);
  try {
    return await client.jobs.wait(jobId, { ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), onProgress: (update) => view.update(update) });
  } finally {
    view.stop();
  }
}

interface JobView {
  update(update: JobUpdate): void;
  stop(): void;
}

/** The ETA the server gave while the job waits in the queue; once targets finish, the bar's own rate-based estimate. */
function etaText(job: Job, progress: JobProgress, barEtaSeconds: number): string {
  const queued = job.queue?.etaSeconds;
  if (typeof queued === 'number') return formatDuration(queued);
  if (progress.done + progress.failed === 0 || !Number.isFinite(barEtaSeconds)) return '…';
  return formatDuration(barEtaSeconds);
}

class JobBar implements JobView {
  private readonly bar: cliProgress.SingleBar;
  private started = false;

  constructor(output: Output) {
    const c = output.colors;
    this.bar = new cliProgress.SingleBar({
      stream: output.stderr,
      hideCursor: true,
      barsize: 30,
      barCompleteChar: '\u2588',
      barIncompleteChar: '\u2591',
      etaBuffer: 20,
      format: (options, params, payload: { job: Job; progress: JobProgress }) => {
        const { job, progress } = payload;
        const bar = cliProgress.Format.BarFormat(params.progress, options);
        const failed = progress.failed > 0 ? c.red(`${progress.failed} failed`) : `${progress.failed} failed`;
        const queue = job.status === 'queued' && typeof job.queue?.position === 'number' ? ` | queue position ${job.queue.position}` : '';
        return `${bar} ${c.green(`${progress.done} done`)}, ${failed} / ${progress.total} | ${statusColor(c, job.status)}${queue} | ETA ${etaText(job, progress, params.eta)}`;
      },
    });
  }

  update({ job, progress }: JobUpdate): void {
    const value = progress.done + progress.failed;
    if (!this.started) {
      this.bar.start(progress.total, value, { job, progress });
      this.started = true;
    } else {
      this.bar.setTotal(progress.total);
      this.bar.update(value, { job, progress });
    }
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}

class JobLines implements JobView {
  private lastStatus = '';
  private readonly output: Output;

  constructor(output: Output) {
    this.output = output;
  }

  update({ job, progress }: JobUpdate): void {
    if (job.status === this.lastStatus) return;
    this.lastStatus = job.status;
    this.output.note(`job ${job.id}: ${job.status} (${progress.done} done, ${progress.failed} failed of ${progress.total})`);
  }

  stop(): void {}
}

export function statusColor(c: Output['colors'], status: string): string {
  switch (status) {
    case 'completed':
      return c.green(status);
    case 'failed':
      return c.red(status);
    case 'cancelled':
      return c.yellow(status);
    default:
      return c.cyan(status);
  }
}
