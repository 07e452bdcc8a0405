/** A counting semaphore: at most `size` holders; the others wait first come, first served. */
export class Slots {
  readonly #size: number;
  #held = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  async acquire(): Promise<void> {
    if (this.#held < this.#size) {
      this.#held += 1;
      return;
    }
    // The releasing holder hands its slot over directly, so #held stays unchanged.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held -= 1;
  }

  get waiting(): number {
    return this.#waiting.length;
  }
}
