import { parseCount } from '../numbers.ts';
import type { SellerFeedbackCounts } from './types.ts';

/** One row of the feedback table: its cells' texts, and whether any is a data cell (`td`). */
export interface TableRow {
  cells: string[];
  hasData: boolean;
}

/**
 * The counts per period from the feedback table (`#feedback-summary-table`): columns 30 days, 90
 * days, 12 months and lifetime, rows positive, neutral and negative shares and the count. The
 * count row is the data row whose values are no percentages, whatever the language names it; `-`
 * (no feedback in a period) is no count.
 */
export function feedbackCounts(rows: readonly TableRow[]): SellerFeedbackCounts | undefined {
  const countRow = rows
    .filter((row) => row.hasData && row.cells.length >= 5)
    .findLast((row) => {
      const values = row.cells.slice(-4);
      return values.every((v) => !/[%％]/.test(v)) && values.some((v) => /\d/.test(v));
    });
  if (countRow === undefined) return undefined;
  const [days30, days90, months12, lifetime] = countRow.cells.slice(-4).map((v) => (/\d/.test(v) ? parseCount(v) : undefined));
  const counts: SellerFeedbackCounts = {};
  if (days30 !== undefined) counts.days30 = days30;
  if (days90 !== undefined) counts.days90 = days90;
  if (months12 !== undefined) counts.months12 = months12;
  if (lifetime !== undefined) counts.lifetime = lifetime;
  return Object.keys(counts).length > 0 ? counts : undefined;
}
