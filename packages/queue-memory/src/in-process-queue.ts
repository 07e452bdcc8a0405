import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  backoffDelay,
  RetryLaterError,
  UnrecoverableError,
  type AddOptions,
  type Broadcast,
  type JobHandler,
  type ProcessOptions,
  type QueueDefinition,
  type QueueJob,
  type QueueProvider,
  type QueueStats,
  type WorkQueue,
} from '@crawl/queue';

interface Entry<P> {
  id: string;
  payload: P;
  group: string;
  attempt: number;
  maxAttempts: number;
  /** Epoch ms the task first became due (added, plus its delay); retries keep it. */
  dueAt: number;
}

const NO_GROUP = '';

/**
 * A queue inside the process. Dispatch is round-robin over groups: each group with waiting work
 * gets one job in turn, so one tenant's backlog of thousands never starves another's handful.
 */
export class InProcessQueue<P> implements WorkQueue<P> {
  readonly name: string;
  readonly #definition: QueueDefinition<P>;
  readonly #waiting = new Map<string, Entry<P>[]>();
  /** Groups in dispatch order; a group is re-appended after it is served. */
  readonly #rotation: string[] = [];
  readonly #known = new Set<string>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #idle = new Set<() => void>();
  #handler: JobHandler<P> | undefined;
  #options: ProcessOptions<P> | undefined;
  #active = 0;
  #delayed = 0;
  #failed = 0;
  #completed = 0;
  #closed = false;

  constructor(definition: QueueDefinition<P>) {
    this.name = definition.name;
    this.#definition = definition;
  }

  async add(payload: P, options: AddOptions = {}): Promise<{ id: string }> {
    const parsed = this.#definition.parse(payload);
    const id = options.jobId ?? randomUUID();
    if (options.jobId && this.#known.has(id)) return { id };
    this.#known.add(id);
    const maxAttempts = options.attempts ?? this.#definition.retry.attempts;
    const delayMs = options.delayMs && options.delayMs > 0 ? options.delayMs : 0;
    const entry: Entry<P> = { id, payload: parsed, group: options.group ?? NO_GROUP, attempt: 1, maxAttempts, dueAt: Date.now() + delayMs };
    if (delayMs > 0) this.#later(entry, delayMs);
    else this.#enqueue(entry);
    return { id };
  }

  async process(handler: JobHandler<P>, options: ProcessOptions<P>): Promise<void> {
    this.#handler = handler;
    this.#options = options;
    this.#pump();
  }

  async stats(): Promise<QueueStats> {
    let waiting = 0;
    for (const entries of this.#waiting.values()) waiting += entries.length;
    return { waiting, active: this.#active, delayed: this.#delayed, failed: this.#failed, completed: this.#completed, groups: this.#waiting.size };
  }

  /**
   * The rotation read forward: the task at place i of its group goes out in round i, after one
   * task of every group ahead of its own in this round and of every other group in earlier ones.
   */
  async position(id: string): Promise<number | undefined> {
    const ownRank = this.#rotation.findIndex((group) => this.#waiting.get(group)?.some((entry) => entry.id === id));
    if (ownRank < 0) return undefined;
    const own = this.#waiting.get(this.#rotation[ownRank] as string) as Entry<P>[];
    const round = own.findIndex((entry) => entry.id === id);
    let ahead = round;
    this.#rotation.forEach((group, rank) => {
      if (rank === ownRank) return;
      ahead += Math.min(this.#waiting.get(group)?.length ?? 0, rank < ownRank ? round + 1 : round);
    });
    return ahead;
  }

  async oldestWaitingAgeMs(): Promise<number | undefined> {
    let oldest = Number.POSITIVE_INFINITY;
    // Retries rejoin the end of their group, so a group's first entry is not always its oldest.
    for (const entries of this.#waiting.values()) for (const entry of entries) if (entry.dueAt < oldest) oldest = entry.dueAt;
    return oldest === Number.POSITIVE_INFINITY ? undefined : Math.max(0, Date.now() - oldest);
  }

  /** Tasks live and die with this process: there is no loss to report. */
  onLost(_listener: () => void): () => void {
    return () => undefined;
  }

  async close(graceMs = 10_000): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#active === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.#idle.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #enqueue(entry: Entry<P>): void {
    let entries = this.#waiting.get(entry.group);
    if (!entries) {
      entries = [];
      this.#waiting.set(entry.group, entries);
      this.#rotation.push(entry.group);
    }
    entries.push(entry);
    this.#pump();
  }

  #later(entry: Entry<P>, delayMs: number): void {
    this.#delayed += 1;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#delayed -= 1;
      this.#enqueue(entry);
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  #next(): Entry<P> | undefined {
    while (this.#rotation.length > 0) {
      const group = this.#rotation.shift() as string;
      const entries = this.#waiting.get(group);
      const entry = entries?.shift();
      if (entries && entries.length > 0) this.#rotation.push(group);
      else this.#waiting.delete(group);
      if (entry) return entry;
    }
    return undefined;
  }

  #pump(): void {
    if (!this.#handler || !this.#options || this.#closed) return;
    while (this.#active < this.#options.concurrency) {
      const entry = this.#next();
      if (!entry) return;
      this.#active += 1;
      void this.#run(entry);
    }
  }

  async #run(entry: Entry<P>): Promise<void> {
    const job: QueueJob<P> = {
      id: entry.id,
      payload: entry.payload,
      attempt: entry.attempt,
      maxAttempts: entry.maxAttempts,
      group: entry.group || undefined,
    };
    try {
      await (this.#handler as JobHandler<P>)(job);
      this.#completed += 1;
      this.#known.delete(entry.id);
    } catch (error) {
      await this.#failedAttempt(entry, job, error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.#active -= 1;
      if (this.#active === 0) for (const resolve of this.#idle) resolve();
      this.#pump();
    }
  }

  async #failedAttempt(entry: Entry<P>, job: QueueJob<P>, error: Error): Promise<void> {
    if (this.#closed) return;
    if (error instanceof RetryLaterError) {
      this.#later(entry, error.delayMs);
      return;
    }
    const retry = this.#definition.retry;
    if (!(error instanceof UnrecoverableError) && entry.attempt < entry.maxAttempts) {
      this.#later({ ...entry, attempt: entry.attempt + 1 }, backoffDelay(retry, entry.attempt));
      return;
    }
    this.#failed += 1;
    this.#known.delete(entry.id);
    try {
      await this.#options?.onFailed?.(job, error);
    } catch {
      // The failure hook is best effort; the job is already dead-lettered.
    }
  }
}

/** Listeners in this process only: with the in-process queue there is no other process to tell. */
class InProcessBroadcast implements Broadcast {
  readonly topic: string;
  readonly #emitter: EventEmitter;

  constructor(topic: string, emitter: EventEmitter) {
    this.topic = topic;
    this.#emitter = emitter;
  }

  async publish(message: string): Promise<void> {
    // Delivered after the publisher's turn, like a message that went through a backend.
    queueMicrotask(() => this.#emitter.emit(this.topic, message));
  }

  subscribe(listener: (message: string) => void): () => void {
    // One subscriber's failure must not keep the message from the others.
    const guarded = (message: string) => {
      try {
        listener(message);
      } catch {
        // best effort, as on Redis
      }
    };
    this.#emitter.on(this.topic, guarded);
    return () => this.#emitter.off(this.topic, guarded);
  }
}

export class InProcessQueueProvider implements QueueProvider {
  readonly kind = 'in-process' as const;
  readonly #queues = new Map<string, InProcessQueue<unknown>>();
  readonly #broadcasts = new EventEmitter().setMaxListeners(0);

  broadcast(topic: string): Broadcast {
    return new InProcessBroadcast(topic, this.#broadcasts);
  }

  queue<P>(definition: QueueDefinition<P>): WorkQueue<P> {
    let queue = this.#queues.get(definition.name);
    if (!queue) {
      queue = new InProcessQueue(definition) as InProcessQueue<unknown>;
      this.#queues.set(definition.name, queue);
    }
    return queue as unknown as WorkQueue<P>;
  }

  async close(graceMs?: number): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close(graceMs)));
  }
}
