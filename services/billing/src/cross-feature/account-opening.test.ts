import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture, closeFixtures } from '../testing/billing-fixture.ts';

afterEach(closeFixtures);

describe('opening an account', () => {
  it('opens it once with its signup bonus, however often registration calls', async () => {
    const { billing } = await billingFixture({ SIGNUP_BONUS_CREDITS: 250 });
    const balances = await Promise.all([billing.operations.openAccount('org_a', 'usr_a'), billing.operations.openAccount('org_a', 'usr_a')]);
    expect(balances).toEqual([expect.objectContaining({ available: 250, granted: 250 }), expect.objectContaining({ available: 250, granted: 250 })]);
    expect(await billing.accounts.find('org_a')).toMatchObject({ ownerUserId: 'usr_a' });
  });

  it('links the referrer of a known code, and never fails registration on a code it cannot link', async () => {
    const { billing } = await billingFixture();
    await billing.operations.openAccount('org_ref', 'usr_ref');
    const code = await billing.referrals.codeFor('usr_ref', 'org_ref');
    await billing.operations.openAccount('org_new', 'usr_new', code._id.toLowerCase());
    expect(await billing.accounts.find('org_new')).toMatchObject({ referralCode: code._id, referredByOrganizationId: 'org_ref' });
    expect(await billing.operations.openAccount('org_other', 'usr_other', 'NOSUCHCODE')).toMatchObject({ available: 1000 });
    expect(await billing.operations.openAccount('org_ref', 'usr_ref', code._id)).toMatchObject({ available: 1000 });
    expect(await billing.accounts.find('org_ref')).not.toHaveProperty('referredByOrganizationId');
  });
});
