import type { FullBalance } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Accounts } from '../features/accounts/index.ts';
import { LedgerRefusal, toBalance, type CreditAdjustment, type CreditLedger, type LedgerEntryDoc } from '../features/ledger/index.ts';
import type { RecordAudit } from '../features/shared/index.ts';

export interface AdminCreditsNeeds {
  /** An organization billing has never seen is a 404, not a new account. */
  accounts: Pick<Accounts, 'require'>;
  ledger: Pick<CreditLedger, 'record' | 'rollForward' | 'list'>;
  /** Best effort: the credits are granted or revoked whether or not the event is recorded. */
  audit: RecordAudit;
}

/** An admin grant or revoke, audited; a revoke beyond the available credits is a 409. */
export async function adjustCredits(needs: AdminCreditsNeeds, input: CreditAdjustment): Promise<{ entry: LedgerEntryDoc; balance: FullBalance }> {
  await needs.accounts.require(input.organizationId);
  let recorded: LedgerEntryDoc;
  try {
    recorded = (
      await needs.ledger.record({
        organizationId: input.organizationId,
        key: `admin:${input.operationId}`,
        kind: input.type === 'grant' ? 'admin_grant' : 'admin_revoke',
        amount: input.amount,
        reason: input.reason,
        actorUserId: input.actorUserId,
      })
    ).entry;
  } catch (error) {
    if (error instanceof LedgerRefusal) {
      throw errors.conflict(`Cannot revoke ${input.amount} credits: only ${error.balance.available} available`, [{ available: error.balance.available }]);
    }
    throw error;
  }
  await needs.audit({
    organizationId: input.organizationId,
    actorUserId: input.actorUserId,
    action: `credits.${input.type}`,
    resourceType: 'credit_ledger_entry',
    resourceId: recorded._id,
    ...(input.requestId ? { requestId: input.requestId } : {}),
    metadata: { amount: input.amount, reason: input.reason },
  });
  return { entry: recorded, balance: toBalance(await needs.ledger.rollForward(input.organizationId)) };
}

/** One page of an organization's ledger, newest first, for an organization billing knows. */
export async function ledgerPage(
  needs: Pick<AdminCreditsNeeds, 'accounts' | 'ledger'>,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ entries: LedgerEntryDoc[]; total: number }> {
  await needs.accounts.require(organizationId);
  return needs.ledger.list(organizationId, page);
}
