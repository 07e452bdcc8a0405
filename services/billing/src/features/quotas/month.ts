/** The UTC calendar month of an instant, e.g. `2026-11`: the key of the monthly counters. */
export function monthKey(at: Date): string {
  return `${at.getUTCFullYear().toString().padStart(4, '0')}-${(at.getUTCMonth() + 1).toString().padStart(2, '0')}`;
}

/** The first instant of the next UTC month, when the counters start from zero. */
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
