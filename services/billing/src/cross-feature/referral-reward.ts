import type { OrderDoc } from '../features/packages/index.ts';
import type { Referrals } from '../features/referrals/index.ts';
import type { Logger } from '../features/shared/index.ts';

/**
 * After each fulfilled paid order: the referred organization's first one rewards its referrer. A
 * failure never fails the purchase; it is retried on the next fulfilment of a paid order of the
 * organization, and the reward's ledger key keeps it to one.
 */
export async function rewardReferrer(needs: { referrals: Pick<Referrals, 'rewardFirstPurchase'>; logger: Logger }, order: OrderDoc): Promise<void> {
  try {
    await needs.referrals.rewardFirstPurchase(order.organizationId);
  } catch (error) {
    needs.logger.warn({ err: error, organizationId: order.organizationId }, 'referral reward failed; retried on the next paid order');
  }
}
