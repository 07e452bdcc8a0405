/** Where time comes from: the shape of the services' Clock, so a test's manual clock fits. */
export interface TimeSource {
  now(): Date;
}

export const SYSTEM_TIME: TimeSource = { now: () => new Date() };

/**
 * The simulator's own clock, which drift reads. It follows its source (the system's by default)
 * until set or advanced; then it stays where it was put, so a test reads one step for as long as
 * it likes, until it moves it again or `follow()` hands it back to the source.
 */
export class SimulatorClock implements TimeSource {
  readonly #source: TimeSource;
  #pinned: number | undefined;

  constructor(source: TimeSource = SYSTEM_TIME) {
    this.#source = source;
  }

  now(): Date {
    return this.#pinned === undefined ? this.#source.now() : new Date(this.#pinned);
  }

  /** True once set or advanced, until `follow()`. */
  get pinned(): boolean {
    return this.#pinned !== undefined;
  }

  set(time: Date): void {
    this.#pinned = time.getTime();
  }

  advance(ms: number): void {
    this.#pinned = this.now().getTime() + ms;
  }

  /** Back to the source's time. */
  follow(): void {
    this.#pinned = undefined;
  }
}
