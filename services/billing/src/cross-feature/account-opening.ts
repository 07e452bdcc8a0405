import type { FullBalance } from '@crawl/contracts';
import type { Accounts } from '../features/accounts/index.ts';
import type { CreditLedger } from '../features/ledger/index.ts';
import type { Referrals } from '../features/referrals/index.ts';
import type { Logger } from '../features/shared/index.ts';

export interface AccountOpeningNeeds {
  accounts: Pick<Accounts, 'ensure'>;
  referrals: Pick<Referrals, 'linkSignup'>;
  ledger: Pick<CreditLedger, 'balance'>;
  logger: Logger;
}

/**
 * Opens an account at registration (idempotent) and links the referrer when a code came along.
 * Registration never fails on a referral code: one that cannot be linked is only logged.
 */
export async function openAccount(needs: AccountOpeningNeeds, organizationId: string, ownerUserId: string, referralCode?: string): Promise<FullBalance> {
  await needs.accounts.ensure(organizationId, ownerUserId);
  if (referralCode) {
    const linked = await needs.referrals.linkSignup(organizationId, referralCode);
    if (!linked) needs.logger.info({ organizationId }, 'referral code not linked (unknown, self-referral or already linked)');
  }
  return needs.ledger.balance(organizationId);
}
