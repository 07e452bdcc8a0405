/** A reading of the queue's counters: tasks finished so far (done or given up) and tasks in flight. */
export interface QueueCounters {
  processed: number;
  active: number;
}

export interface Throughput {
  /** Tasks finished per second over the window; null until two readings a second apart exist. */
  perSecond: number | null;
  /** Tasks in flight at the latest reading. */
  active: number;
}

interface Sample extends QueueCounters {
  at: number;
}

/** Nothing in flight and nothing finished since the reading before it. */
const isIdle = (sample: Sample, before: Sample | undefined): boolean => sample.active === 0 && (!before || sample.processed === before.processed);

/**
 * Measured throughput of the crawl queue: the queue's own finished-task counters (all workers'
 * on Redis, this process's in process), read at most once a second and only when someone asks,
 * kept for a minute. The rate is the counters' growth between the oldest and newest reading; an
 * idle queue (nothing in flight, nothing finished) has no rate, so its ETA is unknown, not endless.
 */
export class ThroughputMeter {
  readonly #read: () => Promise<QueueCounters>;
  readonly #now: () => number;
  readonly #windowMs: number;
  readonly #sampleEveryMs: number;
  readonly #samples: Sample[] = [];
  #reading: Promise<void> | undefined;

  constructor(read: () => Promise<QueueCounters>, options: { now?: () => number; windowMs?: number; sampleEveryMs?: number } = {}) {
    this.#read = read;
    this.#now = options.now ?? (() => performance.now());
    this.#windowMs = options.windowMs ?? 60_000;
    this.#sampleEveryMs = options.sampleEveryMs ?? 1_000;
  }

  async current(): Promise<Throughput> {
    const latest = this.#samples.at(-1);
    if (!latest || this.#now() - latest.at >= this.#sampleEveryMs) await this.#sample();
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last) return { perSecond: null, active: 0 };
    const seconds = (last.at - first.at) / 1_000;
    return { perSecond: seconds >= this.#sampleEveryMs / 1_000 ? Math.max(0, last.processed - first.processed) / seconds : null, active: last.active };
  }

  #sample(): Promise<void> {
    this.#reading ??= this.#read()
      .then((counters) => {
        const at = this.#now();
        const previous = this.#samples.at(-1);
        this.#samples.push({ ...counters, at });
        // A restarted counter (an in-process queue after a restart) starts a new window. So does
        // work after an idle reading: time when nothing ran says nothing about how fast workers
        // go (a backlog that waited for a worker to start would read as a slow queue for a minute).
        if (previous && (counters.processed < previous.processed || isIdle(previous, this.#samples.at(-3)))) this.#samples.splice(0, this.#samples.length - 1);
        while (this.#samples.length > 2 && at - (this.#samples[1] as Sample).at >= this.#windowMs) this.#samples.shift();
      })
      .catch(() => undefined)
      .finally(() => {
        this.#reading = undefined;
      });
    return this.#reading;
  }
}
