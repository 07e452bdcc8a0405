import type { FullBalance, LedgerEntryView } from '@crawl/contracts';
import { ZERO_BALANCE } from './balance.ts';
import type { BalanceDoc, LedgerEntryDoc } from './ledger-repository.ts';

/** The four figures of a balance document; zeros for an organization never seen. */
export function toBalance(doc: Pick<BalanceDoc, keyof FullBalance> | null): FullBalance {
  return doc ? { available: doc.available, reserved: doc.reserved, spent: doc.spent, granted: doc.granted } : { ...ZERO_BALANCE };
}

/** An entry as the API shows it: its version is the organization's gapless sequence number. */
export function toLedgerView(entry: LedgerEntryDoc): LedgerEntryView {
  return {
    id: entry._id,
    organizationId: entry.organizationId,
    sequence: entry.version,
    kind: entry.kind,
    amount: entry.amount,
    reason: entry.reason,
    ...(entry.jobId ? { jobId: entry.jobId } : {}),
    ...(entry.orderId ? { orderId: entry.orderId } : {}),
    ...(entry.actorUserId ? { actorUserId: entry.actorUserId } : {}),
    ...(entry.charges ? { charges: { chargedTargets: entry.charges.chargedTargets, unchargedTargets: entry.charges.unchargedTargets } } : {}),
    balanceAfter: entry.balanceAfter,
    createdAt: entry.createdAt,
  };
}
