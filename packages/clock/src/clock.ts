/** Time as the domain sees it; tests substitute a controllable one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Timeouts, injectable so tests move time by hand instead of sleeping. */
export interface Timers {
  /** Calls `callback` after `ms`; returns a cancel function. */
  setTimeout(callback: () => void, ms: number): () => void;
}

/** Real timeouts, unref'd: a pending one never keeps the process alive. */
export const systemTimers: Timers = {
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * A clock that only moves when told to, with timeouts on its time. `advance(ms)` fires every
 * timeout that comes due, earliest first (timeouts set by those fire too when due); `set` jumps
 * without firing any.
 */
export class ManualClock implements Clock, Timers {
  #time: number;
  #seq = 0;
  readonly #timeouts = new Map<number, { at: number; callback: () => void }>();

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#time = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#time);
  }

  set(time: Date | string): void {
    this.#time = new Date(time).getTime();
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const id = (this.#seq += 1);
    this.#timeouts.set(id, { at: this.#time + Math.max(0, ms), callback });
    return () => this.#timeouts.delete(id);
  }

  advance(ms: number): void {
    const until = this.#time + ms;
    for (;;) {
      let nextId: number | undefined;
      let next: { at: number; callback: () => void } | undefined;
      // Insertion order breaks ties: of two timeouts due at once, the one set first fires first.
      for (const [id, timeout] of this.#timeouts) if (timeout.at <= until && (!next || timeout.at < next.at)) [nextId, next] = [id, timeout];
      if (!next || nextId === undefined) break;
      this.#timeouts.delete(nextId);
      // A timeout that fell due during a `set` jump fires at the current time, never in the past.
      if (next.at > this.#time) this.#time = next.at;
      next.callback();
    }
    this.#time = until;
  }

  /** Timeouts waiting to fire. */
  get pending(): number {
    return this.#timeouts.size;
  }

  /** When the earliest pending timeout fires, relative to now; undefined when none is pending. */
  nextTimerInMs(): number | undefined {
    let at: number | undefined;
    for (const timeout of this.#timeouts.values()) if (at === undefined || timeout.at < at) at = timeout.at;
    return at === undefined ? undefined : at - this.#time;
  }
}
