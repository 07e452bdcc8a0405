import type { DailyCredits } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { Accounts } from '../features/accounts/index.ts';
import { monthCharges, type CreditLedger } from '../features/ledger/index.ts';
import { monthKey, nextMonthStart, remainingOf, type UsageCounters, type UsageReport } from '../features/quotas/index.ts';

export interface UsageReportNeeds {
  accounts: Pick<Accounts, 'find' | 'limitsOf'>;
  usage: Pick<UsageCounters, 'used'>;
  ledger: Pick<CreditLedger, 'daysOf' | 'balance'>;
  clock: Clock;
}

/** This month of an organization: its plan's limits, the counters against them, its credits and the targets settled. */
export async function usageReport(needs: UsageReportNeeds, organizationId: string): Promise<UsageReport> {
  const account = await needs.accounts.find(organizationId);
  const now = needs.clock.now();
  const month = monthKey(now);
  const limits = needs.accounts.limitsOf(account);
  const used = await needs.usage.used(organizationId, month);
  // From the month's ledger entries, as /usage/daily reads them: one range of the ledger's
  // index, never a scan of jobs.
  const charges = monthCharges(await needs.ledger.daysOf(organizationId, month));
  return {
    organizationId,
    month,
    resetsAt: nextMonthStart(now).toISOString(),
    limits,
    used,
    remaining: remainingOf(limits, used),
    balance: await needs.ledger.balance(organizationId),
    charges,
  };
}

/** Credits spent and added per UTC day of `month` (`YYYY-MM`); the current UTC month when absent. */
export function dailyCredits(needs: { ledger: Pick<CreditLedger, 'daysOf'>; clock: Clock }, organizationId: string, month?: string): Promise<DailyCredits> {
  return needs.ledger.daysOf(organizationId, month ?? monthKey(needs.clock.now()));
}
