import type { TimerPort } from './upstream-rate-limiter.ts';

/** A TimerPort whose time moves only when a test says so (also used by fetch-retry tests). */
export class ManualTimers implements TimerPort {
  #now = 0;
  #seq = 0;
  readonly #pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): () => void {
    const id = (this.#seq += 1);
    this.#pending.set(id, { at: this.#now + Math.max(0, ms), callback });
    return () => this.#pending.delete(id);
  }

  /** Moves time forward, firing due timers in order (timers they set fire too when due). */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      let nextId: number | undefined;
      let next: { at: number; callback: () => void } | undefined;
      for (const [id, timer] of this.#pending) if (timer.at <= until && (!next || timer.at < next.at)) [nextId, next] = [id, timer];
      if (!next || nextId === undefined) break;
      this.#pending.delete(nextId);
      this.#now = next.at;
      next.callback();
    }
    this.#now = until;
  }

  /** When the earliest pending timer fires, relative to now; undefined when none is pending. */
  nextTimerInMs(): number | undefined {
    let at: number | undefined;
    for (const timer of this.#pending.values()) if (at === undefined || timer.at < at) at = timer.at;
    return at === undefined ? undefined : at - this.#now;
  }
}
