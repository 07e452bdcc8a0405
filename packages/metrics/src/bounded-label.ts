/** The label value kept for anything past a label's known or first-seen values. */
export const OTHER = 'other';

/**
 * Keeps a label's values bounded whatever callers pass: the known values, and at most `limit`
 * others as first seen (marketplace domains, proxy identities, parser fields); anything beyond
 * is `other`. An id can never turn into an unbounded series this way.
 */
export class BoundedLabel {
  readonly #seen: Set<string>;
  readonly #limit: number;

  constructor(known: readonly string[], limit = 0) {
    this.#seen = new Set(known);
    this.#limit = known.length + limit;
  }

  of(value: string | undefined): string {
    if (value === undefined || value === '') return 'none';
    if (this.#seen.has(value)) return value;
    if (this.#seen.size >= this.#limit || value.length > 64) return OTHER;
    this.#seen.add(value);
    return value;
  }
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx`, `4xx`…: the status class, a label of five values. */
export function statusClass(status: number): string {
  return STATUS_CLASSES[Math.floor(status / 100) - 1] ?? OTHER;
}
