import type { Identity } from '@crawl/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture, closeFixtures, ledgerProblems } from '../../testing/billing-fixture.ts';
import type { PaymentProvider } from '../packages/index.ts';

afterEach(closeFixtures);

const settleAll = (organizationId: string, jobId: string, succeeded: number) => ({
  organizationId,
  jobId,
  succeededTargets: succeeded,
  failedTargets: 0,
  cancelledTargets: 0,
});

const buyerIn = (organizationId: string): Identity => ({
  userId: `usr_${organizationId}`,
  organizationId,
  email: `${organizationId}@example.com`,
  role: 'user',
  audience: 'dashboard',
});
const FREE_PACKAGE = JSON.stringify([{ id: 'free', name: 'Free', priceCents: 0, currency: 'USD', credits: 100, bonusCredits: 0 }]);

describe('referrals', () => {
  it('rewards nothing for a signup that only spends its free credits on jobs', async () => {
    const { billing } = await billingFixture();
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.operations.openAccount('org_new', 'usr_new', code._id);
    for (const jobId of ['job_1', 'job_2']) {
      await billing.reservations.reserve({ organizationId: 'org_new', jobId, jobType: 'details', targetCount: 1, reason: 'job.create' });
      await billing.reservations.settle(settleAll('org_new', jobId, 1));
    }
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ available: 1000, granted: 1000 });
    expect((await billing.referrals.stats('usr_ref', 'org_ref')).rewards).toBe(0);
  });

  it('rewards the referrer once, on the first paid purchase, even when purchases complete concurrently', async () => {
    const { billing, store } = await billingFixture();
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.operations.openAccount('org_new', 'usr_new', code._id.toLowerCase());
    await Promise.all(['starter', 'starter', 'growth'].map((packageId) => billing.checkout.start(buyerIn('org_new'), { packageId })));
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ available: 1500, granted: 1500 });
    expect(await billing.referrals.stats('usr_ref', 'org_ref')).toEqual({ code: code._id, clicks: 0, signups: 1, rewards: 1, rewardCredits: 500 });
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('links an organization once and ignores self-referral and unknown codes', async () => {
    const { billing } = await billingFixture();
    const first = await billing.referrals.codeFor('usr_a', 'org_a');
    const second = await billing.referrals.codeFor('usr_b', 'org_b');
    expect(await billing.referrals.linkSignup('org_a', first._id)).toBe(false);
    expect(await billing.referrals.linkSignup('org_c', 'NOPE2345')).toBe(false);
    await billing.operations.openAccount('org_c', 'usr_c');
    expect(await billing.referrals.linkSignup('org_c', first._id)).toBe(true);
    expect(await billing.referrals.linkSignup('org_c', second._id)).toBe(false);
    expect((await billing.referrals.stats('usr_a', 'org_a')).signups).toBe(1);
    expect((await billing.referrals.stats('usr_b', 'org_b')).signups).toBe(0);
  });

  it('gives one code per user, also on concurrent first requests, and counts clicks', async () => {
    const { billing } = await billingFixture();
    const codes = await Promise.all(Array.from({ length: 5 }, () => billing.referrals.codeFor('usr_a', 'org_a')));
    expect(new Set(codes.map((c) => c._id)).size).toBe(1);
    expect(codes[0]?._id).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    await billing.referrals.click(codes[0]!._id.toLowerCase());
    await billing.referrals.click(codes[0]!._id);
    expect((await billing.referrals.stats('usr_a', 'org_a')).clicks).toBe(2);
    await expect(billing.referrals.click('UNKNOWN9')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('grants nothing when REFERRAL_REWARD_CREDITS is 0', async () => {
    const { billing } = await billingFixture({ REFERRAL_REWARD_CREDITS: 0 });
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.operations.openAccount('org_new', 'usr_new', code._id);
    await billing.checkout.start(buyerIn('org_new'), { packageId: 'starter' });
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ granted: 1000 });
  });

  it('grants nothing for a free package, nor for an order the provider has not confirmed, and rewards once it confirms', async () => {
    const free = await billingFixture({ CREDIT_PACKAGES: FREE_PACKAGE });
    await free.billing.operations.openAccount('org_ref', 'usr_ref');
    const freeCode = await free.billing.referrals.codeFor('usr_ref', 'org_ref');
    await free.billing.operations.openAccount('org_new', 'usr_new', freeCode._id);
    expect((await free.billing.checkout.start(buyerIn('org_new'), { packageId: 'free' })).status).toBe('completed');
    expect(await free.billing.ledger.balance('org_ref')).toMatchObject({ granted: 1000 });

    const later: PaymentProvider = { name: 'hosted', startPayment: async (request) => ({ reference: `h_${request.orderId}`, status: 'pending' }) };
    const { billing } = await billingFixture({}, { provider: later });
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.operations.openAccount('org_new', 'usr_new', code._id);
    const order = await billing.checkout.start(buyerIn('org_new'), { packageId: 'starter' });
    expect(order.status).toBe('pending');
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ granted: 1000 });
    await billing.checkout.fulfil(order._id);
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ granted: 1500 });
  });

  it('reads reward stats from tallies on the referrer’s balance, counting rewards granted before tallies once', async () => {
    const { billing, repositories, store } = await billingFixture();
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    for (const org of ['org_old', 'org_new']) await billing.operations.openAccount(org, `usr_${org}`, code._id);
    // A reward granted by the code before tallies existed: an entry without tallies, account noted.
    const { entry } = await billing.ledger.record({
      organizationId: 'org_ref',
      key: 'referral:org_old',
      kind: 'referral_reward',
      amount: 300,
      reason: 'old reward',
    });
    await billing.accounts.markReferralRewarded('org_old', entry.createdAt, 300);
    await billing.checkout.start(buyerIn('org_new'), { packageId: 'starter' });
    const expected = { code: code._id, clicks: 0, signups: 2, rewards: 2, rewardCredits: 800 };
    expect(await billing.referrals.stats('usr_ref', 'org_ref')).toEqual(expected);
    expect(await billing.referrals.stats('usr_ref', 'org_ref')).toEqual(expected);
    expect((await repositories.referralCodes.findCode(code._id))?.legacyRewards).toEqual({ rewards: 1, credits: 300 });
    expect(await billing.ledger.rollForward('org_ref')).toMatchObject({
      tallies: { [`referralRewards_${code._id}`]: 1, [`referralCredits_${code._id}`]: 500 },
    });
    expect(await ledgerProblems(store)).toEqual([]);
  });
});
