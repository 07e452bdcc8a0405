/** Time as the domain sees it; tests substitute a controllable one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #time: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#time = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#time);
  }
  set(time: Date | string): void {
    this.#time = new Date(time).getTime();
  }
  advance(ms: number): void {
    this.#time += ms;
  }
}
