import type { DailyCredits } from '@crawl/contracts';
import type { BalanceDelta } from './balance.ts';

/** First instant of a `YYYY-MM` UTC month and of the month after it, as ISO timestamps. */
export function monthRange(month: string): { from: string; to: string; days: number } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(year, monthNumber - 1, 1));
  const to = new Date(Date.UTC(year, monthNumber, 1));
  return { from: from.toISOString(), to: to.toISOString(), days: Math.round((to.getTime() - from.getTime()) / 86_400_000) };
}

/**
 * Credits spent and added per UTC day of `month`, from the ledger entries of that month: spent is
 * what captures moved to `spent`, added what grants moved to `granted` (a revoke counts against
 * it). Reservations and releases only move credits between available and reserved: neither.
 */
export function creditDays(month: string, entries: ReadonlyArray<{ createdAt: string; delta: BalanceDelta }>): DailyCredits {
  const { days } = monthRange(month);
  const byDay = Array.from({ length: days }, (_, index) => ({ date: `${month}-${String(index + 1).padStart(2, '0')}`, spent: 0, added: 0 }));
  for (const entry of entries) {
    const day = byDay[Number(entry.createdAt.slice(8, 10)) - 1];
    if (!day || !entry.createdAt.startsWith(month)) continue;
    day.spent += entry.delta.spent;
    day.added += entry.delta.granted;
  }
  return { month, days: byDay };
}
