import type { Broadcast, QueueProvider } from '@crawl/queue';
import type { Logger } from './ports.ts';

export const JOB_CHANGES_TOPIC = 'job-changes';

/**
 * "Job X changed": published after every status change of a job or one of its targets, heard by
 * every catalog replica (the queue backend's broadcast: Redis pub/sub, or in process). It only
 * wakes streams up early: the job document stays the one source of what changed, and streams
 * read it on a timer too, so a lost message delays an event and never loses it.
 */
export class JobChanges {
  readonly #broadcast: Broadcast;
  readonly #logger: Logger;
  readonly #listeners = new Map<string, Set<() => void>>();
  #unsubscribe: (() => void) | undefined;
  #failures = 0;

  constructor(queues: QueueProvider, logger: Logger) {
    this.#broadcast = queues.broadcast(JOB_CHANGES_TOPIC);
    this.#logger = logger;
  }

  /** Never fails its caller (a report or a cancel): the readers' timer covers a lost message. */
  publish(jobId: string): void {
    this.#broadcast.publish(jobId).catch((error: unknown) => {
      // One line per outage, not one per report.
      if (this.#failures++ === 0) this.#logger.warn({ err: error }, 'announcing a job change failed; live job events fall back to polling');
    });
  }

  /** @returns a function that stops listening. */
  subscribe(jobId: string, listener: () => void): () => void {
    this.#unsubscribe ??= this.#broadcast.subscribe((changed) => {
      this.#failures = 0;
      for (const notify of this.#listeners.get(changed) ?? []) notify();
    });
    let listeners = this.#listeners.get(jobId);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(jobId, listeners);
    }
    listeners.add(listener);
    return () => {
      const current = this.#listeners.get(jobId);
      current?.delete(listener);
      if (current?.size === 0) this.#listeners.delete(jobId);
    };
  }

  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#listeners.clear();
  }
}
