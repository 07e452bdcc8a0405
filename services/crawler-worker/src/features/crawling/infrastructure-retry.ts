export interface InfrastructureRetryOptions {
  /** First wait; doubled per consecutive failure of the same task, jittered. */
  baseDelayMs: number;
  /** Longest wait between two tries. */
  maxDelayMs: number;
  /**
   * How long a task that has not reported yet keeps retrying infrastructure failures before one
   * counts as an attempt (a callee answering 5xx for that long is more likely broken than down).
   * A task with a report to deliver is never cut off: its result must not be lost.
   */
  windowMs: number;
  now: () => number;
  random?: () => number;
}

interface Streak {
  since: number;
  failures: number;
}

const TRACKED_TASKS = 10_000;

/** Capped, jittered exponential backoff per task for failures of our own infrastructure. */
export class InfrastructureRetry {
  readonly #options: InfrastructureRetryOptions;
  readonly #streaks = new Map<string, Streak>();

  constructor(options: InfrastructureRetryOptions) {
    this.#options = options;
  }

  /**
   * Records one more failure of `key` and returns the wait before the next try, or undefined when
   * the task has been failing longer than the window (and `deliveringReport` is false).
   */
  delayFor(key: string, deliveringReport: boolean): number | undefined {
    const now = this.#options.now();
    let streak = this.#streaks.get(key);
    if (!streak) {
      if (this.#streaks.size >= TRACKED_TASKS) this.#streaks.delete(this.#streaks.keys().next().value as string);
      streak = { since: now, failures: 0 };
      this.#streaks.set(key, streak);
    }
    streak.failures += 1;
    if (!deliveringReport && now - streak.since > this.#options.windowMs) {
      this.#streaks.delete(key);
      return undefined;
    }
    const ceiling = Math.min(this.#options.maxDelayMs, this.#options.baseDelayMs * 2 ** Math.min(streak.failures - 1, 30));
    return Math.round(ceiling / 2 + (this.#options.random ?? Math.random)() * (ceiling / 2));
  }

  /** The task got through: its next failure starts a new streak. */
  succeeded(key: string): void {
    this.#streaks.delete(key);
  }
}
