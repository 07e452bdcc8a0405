import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture, closeFixtures, ledgerProblems } from '../../testing/billing-fixture.ts';

afterEach(closeFixtures);

const settleAll = (organizationId: string, jobId: string, succeeded: number) => ({
  organizationId,
  jobId,
  succeededTargets: succeeded,
  failedTargets: 0,
  cancelledTargets: 0,
});

describe('referrals', () => {
  it('rewards the referrer once, even when the first completed jobs settle concurrently', async () => {
    const { billing, store } = await billingFixture();
    await billing.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.openAccount('org_new', 'usr_new', code._id.toLowerCase());
    await Promise.all(
      ['job_1', 'job_2', 'job_3'].map((jobId) =>
        billing.reservations.reserve({ organizationId: 'org_new', jobId, jobType: 'details', targetCount: 1, reason: 'job.create' }),
      ),
    );
    await Promise.all(['job_1', 'job_2', 'job_3'].map((jobId) => billing.reservations.settle(settleAll('org_new', jobId, 1))));
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
    await billing.openAccount('org_c', 'usr_c');
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
    await billing.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.openAccount('org_new', 'usr_new', code._id);
    await billing.reservations.reserve({ organizationId: 'org_new', jobId: 'job_1', jobType: 'search', targetCount: 1, reason: 'job.create' });
    await billing.reservations.settle(settleAll('org_new', 'job_1', 1));
    expect(await billing.ledger.balance('org_ref')).toMatchObject({ granted: 1000 });
  });

  it('reads reward stats from tallies on the referrer’s balance, counting rewards granted before tallies once', async () => {
    const { billing, store } = await billingFixture();
    await billing.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    for (const org of ['org_old', 'org_new']) await billing.openAccount(org, `usr_${org}`, code._id);
    // A reward granted by the code before tallies existed: an entry without tallies, account noted.
    const { entry } = await billing.ledger.record({
      organizationId: 'org_ref',
      key: 'referral:org_old',
      kind: 'referral_reward',
      amount: 300,
      reason: 'old reward',
    });
    await billing.accounts.repository.markReferralRewarded('org_old', entry.createdAt, 300);
    await billing.reservations.reserve({ organizationId: 'org_new', jobId: 'job_1', jobType: 'details', targetCount: 1, reason: 'job.create' });
    await billing.reservations.settle(settleAll('org_new', 'job_1', 1));
    const expected = { code: code._id, clicks: 0, signups: 2, rewards: 2, rewardCredits: 800 };
    expect(await billing.referrals.stats('usr_ref', 'org_ref')).toEqual(expected);
    expect(await billing.referrals.stats('usr_ref', 'org_ref')).toEqual(expected);
    expect((await billing.referrals.repository.findCode(code._id))?.legacyRewards).toEqual({ rewards: 1, credits: 300 });
    expect(await billing.ledger.rollForward('org_ref')).toMatchObject({
      tallies: { [`referralRewards_${code._id}`]: 1, [`referralCredits_${code._id}`]: 500 },
    });
    expect(await ledgerProblems(store)).toEqual([]);
  });
});
