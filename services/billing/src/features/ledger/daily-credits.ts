import type { DailyCredits, LedgerEntryKind, TargetCharges } from '@crawl/contracts';
import type { BalanceDelta } from './balance.ts';

type DayEntry = { createdAt: string; delta: BalanceDelta; kind?: LedgerEntryKind; charges?: TargetCharges | undefined };

/**
 * The target counts an entry stands for. A settlement writes them on both its entries; they count
 * once: with the capture, or with the release when nothing was charged (then there is no capture:
 * charged targets always capture credits). Decided from the entry alone, so a settlement whose two
 * entries fall either side of midnight, or of a month's end, is never counted twice.
 */
export function settledTargetsOf(entry: Pick<DayEntry, 'kind' | 'charges'>): TargetCharges | undefined {
  if (!entry.charges) return undefined;
  if (entry.kind === 'capture' || (entry.kind === 'release' && entry.charges.chargedTargets === 0)) return entry.charges;
  return undefined;
}

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
 * it). Reservations and releases only move credits between available and reserved: neither. The
 * targets settlements charged and delivered without charge are counted on the day of the entry
 * that stands for them (settledTargetsOf).
 */
export function creditDays(month: string, entries: ReadonlyArray<DayEntry>): DailyCredits {
  const { days } = monthRange(month);
  const byDay = Array.from({ length: days }, (_, index) => ({
    date: `${month}-${String(index + 1).padStart(2, '0')}`,
    spent: 0,
    added: 0,
    chargedTargets: 0,
    unchargedTargets: 0,
  }));
  for (const entry of entries) {
    const day = byDay[Number(entry.createdAt.slice(8, 10)) - 1];
    if (!day || !entry.createdAt.startsWith(month)) continue;
    day.spent += entry.delta.spent;
    day.added += entry.delta.granted;
    const targets = settledTargetsOf(entry);
    if (targets) {
      day.chargedTargets += targets.chargedTargets;
      day.unchargedTargets += targets.unchargedTargets;
    }
  }
  return { month, days: byDay };
}

/** The month's settled targets: its days added up. */
export function monthCharges(daily: DailyCredits): TargetCharges {
  let chargedTargets = 0;
  let unchargedTargets = 0;
  for (const day of daily.days) {
    chargedTargets += day.chargedTargets;
    unchargedTargets += day.unchargedTargets;
  }
  return { chargedTargets, unchargedTargets };
}
