/**
 * The work-queue port. Producers add typed payloads; one or more consumers process them with
 * retries. `group` names the tenant (the organization) so dispatch can be fair across tenants.
 */
export interface QueueJob<P> {
  readonly id: string;
  readonly payload: P;
  /** 1 on the first try. */
  readonly attempt: number;
  /**
   * The attempts this task was added with (its producer's setting, which may differ from the
   * consumer's definition): the attempt equal to it is the last one.
   */
  readonly maxAttempts: number;
  readonly group: string | undefined;
}

export interface AddOptions {
  /** Idempotency: adding an id that is still waiting or active returns the existing job. */
  readonly jobId?: string;
  readonly group?: string;
  readonly delayMs?: number;
  /** Attempts of this task; default the definition's `retry.attempts`. It travels with the task. */
  readonly attempts?: number;
}

export interface RetryPolicy {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

export interface ProcessOptions<P> {
  readonly concurrency: number;
  /** Called once a job has failed for the last time (no attempts left or unrecoverable). */
  readonly onFailed?: (job: QueueJob<P>, error: Error) => Promise<void> | void;
}

export interface QueueStats {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
  readonly completed: number;
  readonly groups: number;
}

export type JobHandler<P> = (job: QueueJob<P>) => Promise<void>;

export interface WorkQueue<P> {
  readonly name: string;
  add(payload: P, options?: AddOptions): Promise<{ id: string }>;
  process(handler: JobHandler<P>, options: ProcessOptions<P>): Promise<void>;
  stats(): Promise<QueueStats>;
  /**
   * How many waiting tasks the fair dispatcher hands out before the waiting task `id` (0: it is
   * next), from the dispatcher's own order as it stands; tasks added later (a group that becomes
   * active joins the rotation at once) can still go before it. `undefined` when the task is not
   * waiting (active, delayed for a retry, finished or unknown).
   */
  position(id: string): Promise<number | undefined>;
  /**
   * Milliseconds since the oldest task waiting now first became due (added, plus the delay it was
   * added with; a task back in line after a retry counts from that same moment, so the figure is
   * how long the oldest outstanding work has waited), read at call time. `undefined` when no task
   * waits; delayed and active tasks do not count.
   */
  oldestWaitingAgeMs(): Promise<number | undefined>;
  /**
   * Calls `listener` whenever the backend is found to have lost this queue's tasks (a Redis
   * restarted without persistence, or flushed): whoever keeps the source of truth adds again
   * what should be queued. A backend that cannot lose tasks apart from its process never calls
   * it. @returns a function that stops the watching.
   */
  onLost(listener: () => void): () => void;
  /** Stops taking work and waits for active jobs (bounded by `graceMs`), then releases resources. */
  close(graceMs?: number): Promise<void>;
}

/** Creates queues by definition; one per backend (in-process or BullMQ). */
export interface QueueProvider {
  readonly kind: 'in-process' | 'bullmq';
  queue<P>(definition: QueueDefinition<P>): WorkQueue<P>;
  /**
   * A fan-out channel on the same backend: every subscriber of `topic` in every process sharing
   * the backend gets each message published after it subscribed. Delivery is best effort (no
   * replay, nothing kept while a subscriber is disconnected): use it to wake readers of a source
   * of truth up early, never as the source itself.
   */
  broadcast(topic: string): Broadcast;
  /** Closes every queue (each waits for its running jobs up to `graceMs`), then the backend. */
  close(graceMs?: number): Promise<void>;
}

/** See `QueueProvider.broadcast`. */
export interface Broadcast {
  readonly topic: string;
  /** Resolves once handed to the backend; rejects when the backend is unreachable. */
  publish(message: string): Promise<void>;
  /** @returns a function that stops the subscription. */
  subscribe(listener: (message: string) => void): () => void;
}

/** One entry of a typed job catalogue: the name and retry semantics travel with the payload type. */
export interface QueueDefinition<P> {
  readonly name: string;
  readonly retry: RetryPolicy;
  /** Validates a payload at the boundary; throw to reject. */
  readonly parse: (payload: unknown) => P;
}

/** Thrown by a handler: do not retry this job. */
export class UnrecoverableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnrecoverableError';
  }
}

/** Thrown by a handler: try again after `delayMs` without spending an attempt (upstream said wait). */
export class RetryLaterError extends Error {
  readonly delayMs: number;
  constructor(message: string, delayMs: number) {
    super(message);
    this.name = 'RetryLaterError';
    this.delayMs = delayMs;
  }
}

/** Exponential backoff with full jitter, capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
