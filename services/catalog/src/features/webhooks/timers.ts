import type { ManualClock } from '@crawl/modules';

/** The timeouts a delivery needs, injectable so tests control time instead of sleeping. */
export interface Timers {
  /** Calls `callback` after `ms`; returns a cancel function. */
  setTimeout(callback: () => void, ms: number): () => void;
}

export const realTimers: Timers = {
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Timers driven by a ManualClock: `advance(ms)` moves the clock and fires every timeout that came
 * due, in order. `pending` shows how many are waiting (tests wait on it instead of sleeping).
 */
export class ManualTimers implements Timers {
  readonly clock: ManualClock;
  #entries: Array<{ due: number; seq: number; callback: () => void }> = [];
  #seq = 0;

  constructor(clock: ManualClock) {
    this.clock = clock;
  }

  get pending(): number {
    return this.#entries.length;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const entry = { due: this.clock.now().getTime() + ms, seq: this.#seq++, callback };
    this.#entries.push(entry);
    return () => {
      this.#entries = this.#entries.filter((e) => e !== entry);
    };
  }

  advance(ms: number): void {
    const target = this.clock.now().getTime() + ms;
    for (;;) {
      const due = this.#entries.filter((e) => e.due <= target).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!due) break;
      this.#entries = this.#entries.filter((e) => e !== due);
      if (due.due > this.clock.now().getTime()) this.clock.set(new Date(due.due));
      due.callback();
    }
    this.clock.set(new Date(target));
  }
}
