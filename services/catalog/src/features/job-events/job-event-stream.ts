import { PassThrough } from 'node:stream';
import type { Logger } from '../shared/ports.ts';
import type { JobDoc } from '../jobs/index.ts';
import { formatFrame, StreamCursor, type EventFrame, type FrameViews } from './event-frames.ts';

/** How long a client waits before reconnecting, sent once at the start (`retry:`). */
export const RECONNECT_AFTER_MS = 3_000;

export interface StreamTiming {
  /** A `: keep-alive` comment this often, so idle proxies keep the connection. */
  heartbeatMs: number;
  /** The job is read this often even when no change was announced (a lost announcement). */
  pollMs: number;
  /** At least this long between two reads of the job (a burst of reports is one read). */
  minReadGapMs: number;
}

export interface JobEventStreamOptions {
  /** Reads the job again (null: it is gone). */
  read: () => Promise<JobDoc | null>;
  views: FrameViews;
  /** Subscribes to announcements of changes of this job; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
  timing: StreamTiming;
  logger: Logger;
  /** Called once when the stream has ended, whoever ended it. */
  onClose: () => void;
}

/**
 * One client's event stream: the body Fastify sends, fed with frames as the job changes. Each
 * announcement (or the poll timer) reads the job and writes what changed since the last read.
 */
export class JobEventStream {
  readonly body = new PassThrough();
  readonly #options: JobEventStreamOptions;
  readonly #cursor = new StreamCursor();
  readonly #timers: NodeJS.Timeout[] = [];
  #unsubscribe: (() => void) | undefined;
  #reading: Promise<void> | undefined;
  #again = false;
  #lastReadAt = 0;
  #wakeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #nothingToSend = false;

  constructor(options: JobEventStreamOptions) {
    this.#options = options;
  }

  /** The first frames (a snapshot, or what followed `Last-Event-ID`); then it follows the job. */
  async start(job: JobDoc, lastEventId: number | undefined): Promise<void> {
    const resumed = lastEventId === undefined ? null : await this.#cursor.resume(job, lastEventId, this.#options.views);
    const frames = resumed ?? (await this.#cursor.snapshot(job, this.#options.views));
    if (resumed && frames.length === 0 && this.#cursor.ended) {
      this.#nothingToSend = true;
      return this.close();
    }
    this.body.write(`retry: ${RECONNECT_AFTER_MS}\n\n`);
    this.#write(frames);
    if (this.#cursor.ended) return this.close();
    this.#unsubscribe = this.#options.subscribe(() => this.#wake());
    const { heartbeatMs, pollMs } = this.#options.timing;
    this.#timers.push(setInterval(() => this.#write(': keep-alive\n\n'), heartbeatMs));
    this.#timers.push(setInterval(() => this.#wake(), pollMs));
    // A change between the read the snapshot came from and the subscription is not missed.
    this.#wake();
  }

  /** Resumed after the `end` event: nothing follows (the route answers 204, which tells EventSource to stop). */
  get nothingToSend(): boolean {
    return this.#nothingToSend;
  }

  /** Ends the stream (the job ended, the client left, or the server is stopping). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
    this.#unsubscribe?.();
    this.body.end();
    this.#options.onClose();
  }

  #write(frames: EventFrame[] | string): void {
    if (this.#closed) return;
    this.body.write(typeof frames === 'string' ? frames : frames.map(formatFrame).join(''));
  }

  #wake(): void {
    if (this.#closed) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    if (this.#wakeTimer) return;
    const wait = Math.max(0, this.#lastReadAt + this.#options.timing.minReadGapMs - Date.now());
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = undefined;
      this.#reading = this.#read().finally(() => {
        this.#reading = undefined;
        if (this.#again) {
          this.#again = false;
          this.#wake();
        }
      });
    }, wait);
  }

  async #read(): Promise<void> {
    if (this.#closed) return;
    this.#lastReadAt = Date.now();
    try {
      const job = await this.#options.read();
      if (this.#closed) return;
      if (!job) return this.close();
      this.#write(await this.#cursor.advance(job, this.#options.views));
      if (this.#cursor.ended) this.close();
    } catch (error) {
      // The store is briefly away: the poll timer tries again; the client keeps its stream.
      this.#options.logger.warn({ err: error }, 'reading a job for its event stream failed; trying again at the next poll');
    }
  }
}
