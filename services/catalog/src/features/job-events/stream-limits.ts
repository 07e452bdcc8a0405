import { AppError } from '@crawl/errors';

/** When a refused client may try again: streams end with their jobs, so a slot frees soon. */
const RETRY_AFTER_SECONDS = 5;

/** Open streams per organization in this process, bounded: each holds a connection and a timer or two. */
export class StreamLimits {
  readonly #max: number;
  readonly #open = new Map<string, number>();

  constructor(maxPerOrganization: number) {
    this.#max = maxPerOrganization;
  }

  /** Takes a slot for the organization. @returns the function that gives it back (once). */
  acquire(organizationId: string): () => void {
    const open = this.#open.get(organizationId) ?? 0;
    if (open >= this.#max) {
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Too many open event streams for this organization (at most ${this.#max}); close one or try again later`,
        429,
        [{ limit: this.#max }],
        { 'retry-after': String(RETRY_AFTER_SECONDS) },
      );
    }
    this.#open.set(organizationId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(organizationId) ?? 1) - 1;
      if (left > 0) this.#open.set(organizationId, left);
      else this.#open.delete(organizationId);
    };
  }
}
