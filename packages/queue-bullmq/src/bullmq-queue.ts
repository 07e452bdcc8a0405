import { DelayedError, Queue, UnrecoverableError as BullUnrecoverableError, Worker, PRIORITY_LIMIT, type Job } from 'bullmq';
import {
  backoffDelay,
  RetryLaterError,
  UnrecoverableError,
  type AddOptions,
  type JobHandler,
  type ProcessOptions,
  type QueueDefinition,
  type QueueJob,
  type QueueStats,
  type WorkQueue,
} from '@crawl/queue';
import { closeRedis, openRedis, whenConnected, type RedisClient } from '@crawl/redis';
import type { BullMqOptions } from './bullmq-options.ts';
import { settledWithin, withTimeout } from './bounded.ts';
import { FAIR_PRIORITY_SCRIPT, FAIR_RELEASE_SCRIPT, POSITION_SCRIPT, WAITING_GROUPS_SCRIPT } from './fair-priority.ts';
import { OLDEST_WAITING_SCAN, OLDEST_WAITING_SCRIPT } from './oldest-waiting.ts';

/** Job name of a task without a group; grouped tasks are named `g:<group>`. */
const NO_GROUP = '*';
const BACKOFF_TYPE = 'work-queue';

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The work queue on BullMQ: one BullMQ queue per definition, fair across groups through BullMQ
 * priorities (fair-priority.ts). BullMQ does delivery, locks, stalled-job recovery, attempts and
 * backoff; this class maps the port's control flow (RetryLaterError, UnrecoverableError,
 * onFailed) onto it. Finished jobs are removed, so an id is "known" only while waiting, delayed
 * or active, like the in-process adapter: re-adding the id of a finished task enqueues it again.
 */
export class BullMqQueue<P> implements WorkQueue<P> {
  readonly name: string;
  readonly #definition: QueueDefinition<P>;
  readonly #options: BullMqOptions;
  readonly #prefix: string;
  readonly #client: RedisClient;
  readonly #queue: Queue;
  readonly #idle = new Set<() => void>();
  #worker: Worker | undefined;
  #workerConnection: RedisClient | undefined;
  #active = 0;
  #closing = false;
  #closed: Promise<void> | undefined;
  readonly #lostListeners = new Set<() => void>();
  #lossTimer: NodeJS.Timeout | undefined;
  #lossCheck: Promise<void> | undefined;
  /** Whether a check found the marker since watching began (the first one sets the baseline). */
  #markerSeen = false;
  /** A check could not reach Redis since the last successful one. */
  #missedCheck = false;

  constructor(definition: QueueDefinition<P>, client: RedisClient, options: BullMqOptions) {
    this.name = definition.name;
    this.#definition = definition;
    this.#options = options;
    this.#prefix = options.prefix ?? 'crawl';
    this.#client = client;
    this.#queue = new Queue(definition.name, { connection: client, prefix: this.#prefix });
    this.#queue.on('error', () => undefined);
  }

  #key(suffix: string): string {
    return `${this.#prefix}:${this.name}:${suffix}`;
  }

  get #timeoutMs(): number {
    return this.#options.commandTimeoutMs ?? 5_000;
  }

  async add(payload: P, options: AddOptions = {}): Promise<{ id: string }> {
    const parsed = this.#definition.parse(payload);
    const jobId = options.jobId;
    if (jobId !== undefined && (jobId.includes(':') || jobId === '' || /^\d+$/.test(jobId))) {
      throw new Error(`invalid job id "${jobId}": BullMQ custom ids must be non-empty, not all digits and contain no ':'`);
    }
    const group = options.group ?? '';
    await whenConnected(this.#client, this.#timeoutMs);
    const priority = Number(
      await withTimeout(
        this.#client.eval(
          FAIR_PRIORITY_SCRIPT,
          6,
          this.#key('prioritized'),
          this.#key('wait'),
          this.#key('delayed'),
          this.#key('x:fair'),
          jobId === undefined ? this.#key('x:fair') : this.#key(jobId),
          this.#key('x:reserved'),
          group,
          String(PRIORITY_LIMIT),
          jobId === undefined ? '0' : '1',
        ),
        this.#timeoutMs,
        `adding to ${this.name}`,
      ),
    );
    if (priority === 0 && jobId !== undefined) return { id: jobId };
    try {
      return await this.#addWithPriority(parsed, options, priority);
    } finally {
      this.#client.eval(FAIR_RELEASE_SCRIPT, 1, this.#key('x:reserved')).catch(() => undefined);
    }
  }

  async #addWithPriority(parsed: P, options: AddOptions, priority: number): Promise<{ id: string }> {
    const jobId = options.jobId;
    const job = await withTimeout(
      this.#queue.add(options.group === undefined ? NO_GROUP : `g:${options.group}`, parsed, {
        ...(jobId === undefined ? {} : { jobId }),
        priority,
        ...(options.delayMs && options.delayMs > 0 ? { delay: options.delayMs } : {}),
        attempts: options.attempts ?? this.#definition.retry.attempts,
        backoff: { type: BACKOFF_TYPE },
        removeOnComplete: true,
        removeOnFail: true,
      }),
      this.#timeoutMs,
      `adding to ${this.name}`,
    );
    if (job.id === undefined) throw new Error(`BullMQ returned no id for a job of ${this.name}`);
    return { id: job.id };
  }

  async process(handler: JobHandler<P>, options: ProcessOptions<P>): Promise<void> {
    if (this.#worker) throw new Error(`queue ${this.name} already has a processor`);
    if (this.#closing) return;
    const policy = this.#definition.retry;
    // Workers block on Redis: their connection must retry forever (maxRetriesPerRequest: null).
    const connection = openRedis(this.#options.url, { role: 'blocking', name: `crawl-worker-${this.name}` });
    this.#workerConnection = connection;
    const worker = new Worker(this.name, async (job: Job, token?: string) => this.#run(job, token, handler, options), {
      connection,
      prefix: this.#prefix,
      concurrency: options.concurrency,
      lockDuration: this.#options.lockDurationMs ?? 30_000,
      stalledInterval: this.#options.stalledIntervalMs ?? 30_000,
      maxStalledCount: this.#options.maxStalledCount ?? 5,
      settings: { backoffStrategy: (attemptsMade: number) => backoffDelay(policy, attemptsMade) },
    });
    worker.on('error', (error) => {
      if (!this.#closing) this.#options.logger?.warn({ err: error, queue: this.name }, 'queue worker error (it keeps retrying)');
    });
    worker.on('completed', () => {
      this.#client.hincrby(this.#key('x:counts'), 'completed', 1).catch(() => undefined);
    });
    this.#worker = worker;
  }

  async #run(job: Job, token: string | undefined, handler: JobHandler<P>, options: ProcessOptions<P>): Promise<void> {
    // Closing: hand the job straight back (no attempt spent) instead of starting it.
    if (this.#closing) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    this.#active += 1;
    try {
      let payload: P;
      try {
        payload = this.#definition.parse(job.data);
      } catch (error) {
        throw new BullUnrecoverableError(`invalid payload: ${asError(error).message}`);
      }
      const queueJob: QueueJob<P> = {
        id: job.id as string,
        payload,
        attempt: job.attemptsMade + 1,
        // BullMQ retries by the attempts stored on the job (the producer's), so the last
        // attempt is decided by them too, never by this consumer's definition.
        maxAttempts: job.opts.attempts ?? this.#definition.retry.attempts,
        group: job.name.startsWith('g:') ? job.name.slice(2) : undefined,
      };
      try {
        await handler(queueJob);
      } catch (thrown) {
        const error = asError(thrown);
        if (this.#closing) {
          // Stopping mid-task (the handler was aborted): hand it back without spending an attempt.
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError();
        }
        if (error instanceof RetryLaterError) {
          await job.moveToDelayed(Date.now() + Math.max(0, error.delayMs), token);
          throw new DelayedError();
        }
        const unrecoverable = error instanceof UnrecoverableError;
        if (unrecoverable || queueJob.attempt >= queueJob.maxAttempts) {
          this.#client.hincrby(this.#key('x:counts'), 'failed', 1).catch(() => undefined);
          try {
            await options.onFailed?.(queueJob, error);
          } catch (hookError) {
            this.#options.logger?.warn({ err: hookError, queue: this.name, jobId: job.id }, 'onFailed hook failed');
          }
          if (unrecoverable) throw new BullUnrecoverableError(error.message);
        }
        throw error;
      }
    } finally {
      this.#active -= 1;
      if (this.#active === 0) for (const resolve of this.#idle) resolve();
    }
  }

  /**
   * Loss is detected by a marker key next to the queue's keys: set when watching begins and
   * whenever it is found missing. Redis restarted without persistence or flushed has no marker,
   * so the first check after (every `lossCheckIntervalMs`, default 5 s) sets it again and tells
   * the listeners. The very first check sets the baseline quietly, unless Redis was unreachable
   * before it (then the queue may have been lost meanwhile). Of several producers watching, the
   * one whose check recreates the marker is told.
   */
  onLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    if (!this.#lossTimer && !this.#closing) {
      this.#lossTimer = setInterval(() => void this.#checkLoss(), this.#options.lossCheckIntervalMs ?? 5_000);
      this.#lossTimer.unref();
      void this.#checkLoss();
    }
    return () => {
      this.#lostListeners.delete(listener);
      if (this.#lostListeners.size === 0) this.#stopLossWatch();
    };
  }

  #stopLossWatch(): void {
    if (this.#lossTimer) clearInterval(this.#lossTimer);
    this.#lossTimer = undefined;
  }

  #checkLoss(): Promise<void> {
    this.#lossCheck ??= this.#checkLossOnce().finally(() => {
      this.#lossCheck = undefined;
    });
    return this.#lossCheck;
  }

  async #checkLossOnce(): Promise<void> {
    let created: boolean;
    try {
      await whenConnected(this.#client, this.#timeoutMs);
      const answer = await withTimeout(this.#client.set(this.#key('x:alive'), new Date().toISOString(), 'NX'), this.#timeoutMs, `checking ${this.name}`);
      created = answer === 'OK';
    } catch {
      this.#missedCheck = true;
      return;
    }
    const baseline = !this.#markerSeen && !this.#missedCheck;
    this.#markerSeen = true;
    this.#missedCheck = false;
    if (!created || baseline) return;
    this.#options.logger?.warn({ queue: this.name }, 'the queue lost its tasks (Redis restarted without persistence or was flushed)');
    for (const listener of this.#lostListeners) {
      try {
        listener();
      } catch (error) {
        this.#options.logger?.error({ err: error, queue: this.name }, 'a queue loss listener failed');
      }
    }
  }

  async stats(): Promise<QueueStats> {
    const read = async (): Promise<QueueStats> => {
      await whenConnected(this.#client, this.#timeoutMs);
      const [counts, totals, groups] = await Promise.all([
        this.#queue.getJobCounts('wait', 'prioritized', 'active', 'delayed'),
        this.#client.hgetall(this.#key('x:counts')),
        this.#client.eval(WAITING_GROUPS_SCRIPT, 2, this.#key('prioritized'), this.#key('wait'), '10000', this.#key('')),
      ]);
      return {
        waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: Number(totals.failed ?? 0),
        completed: Number(totals.completed ?? 0),
        groups: Number(groups),
      };
    };
    return withTimeout(read(), this.#timeoutMs, `reading stats of ${this.name}`);
  }

  /** The task's place in BullMQ's own dispatch order (POSITION_SCRIPT), which the fair priorities decide. */
  async position(id: string): Promise<number | undefined> {
    await whenConnected(this.#client, this.#timeoutMs);
    const answer = await withTimeout(
      this.#client.eval(POSITION_SCRIPT, 2, this.#key('prioritized'), this.#key('wait'), id),
      this.#timeoutMs,
      `reading a position in ${this.name}`,
    );
    const ahead = Number(answer);
    return ahead < 0 ? undefined : ahead;
  }

  /** From the tasks' stored add times (OLDEST_WAITING_SCRIPT), against this process's clock, as BullMQ stamps them. */
  async oldestWaitingAgeMs(): Promise<number | undefined> {
    await whenConnected(this.#client, this.#timeoutMs);
    const answer = await withTimeout(
      this.#client.eval(OLDEST_WAITING_SCRIPT, 2, this.#key('prioritized'), this.#key('wait'), String(OLDEST_WAITING_SCAN), this.#key('')),
      this.#timeoutMs,
      `reading the oldest waiting task of ${this.name}`,
    );
    const dueAt = Number(answer);
    return dueAt < 0 ? undefined : Math.max(0, Date.now() - dueAt);
  }

  /**
   * Stops this process's worker: it takes no new work at once (a job fetched meanwhile is handed
   * straight back), running handlers get up to `graceMs`, and a handler that fails while stopping
   * hands its job back without spending an attempt. A handler still running after the grace keeps
   * its job locked until the lock expires; another worker's stalled check then hands it out again.
   * Producing keeps working (in the all-in-one the catalog adds to the queue the worker consumes)
   * until the provider closes. Never hangs on an unreachable Redis: every step is bounded.
   */
  close(graceMs = 10_000): Promise<void> {
    this.#closed ??= this.#closeWorker(graceMs);
    return this.#closed;
  }

  /** Closes the producer side (the provider calls it last). */
  async closeProducer(): Promise<void> {
    this.#stopLossWatch();
    this.#lostListeners.clear();
    await settledWithin(this.#queue.close(), this.#client.status === 'ready' ? 1_000 : 100);
  }

  async #closeWorker(graceMs: number): Promise<void> {
    this.#closing = true;
    const worker = this.#worker;
    if (worker) {
      void worker.pause(true).catch(() => undefined);
      if (this.#active > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          this.#idle.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      // With Redis unreachable BullMQ's close would wait for it: force it and drop the sockets.
      const reachable = this.#workerConnection?.status === 'ready';
      const force = this.#active > 0 || !reachable;
      await settledWithin(worker.close(force), force ? 500 : 5_000);
      if (this.#workerConnection) await closeRedis(this.#workerConnection);
    }
  }
}
