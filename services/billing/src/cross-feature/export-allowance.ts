import type { ExportAllowance } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { Accounts } from '../features/accounts/index.ts';
import { monthKey, type UsageCounters } from '../features/quotas/index.ts';

export interface ExportAllowanceNeeds {
  accounts: Pick<Accounts, 'ensure' | 'limitsOf'>;
  usage: Pick<UsageCounters, 'consumeExport'>;
  clock: Clock;
}

/** Counts one export against the plan's monthly limit. @throws FORBIDDEN (403) when it is used up. */
export async function consumeExport(needs: ExportAllowanceNeeds, organizationId: string): Promise<ExportAllowance> {
  const account = await needs.accounts.ensure(organizationId);
  const limits = needs.accounts.limitsOf(account);
  const used = await needs.usage.consumeExport(organizationId, monthKey(needs.clock.now()), limits);
  return { exportsThisMonth: used.exportsThisMonth, exportsPerMonth: limits.exportsPerMonth };
}
