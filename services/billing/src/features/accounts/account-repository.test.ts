import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { AccountRepository } from './account-repository.ts';

const NOW = '2026-11-15T12:00:00.000Z';
const referrer = { code: 'ABCD2345', organizationId: 'org_ref', userId: 'usr_ref' };

describeOnEachStore('AccountRepository', (open) => {
  let repo: AccountRepository;

  beforeEach(async () => {
    repo = new AccountRepository(await open());
    await repo.init();
  });

  it('opens an account once, also when opens race, and keeps the first owner', async () => {
    const opened = await Promise.all([repo.openAccount('org_a', NOW), repo.openAccount('org_a', NOW, 'usr_1'), repo.openAccount('org_a', NOW, 'usr_2')]);
    expect(new Set(opened.map((a) => a.createdAt))).toEqual(new Set([NOW]));
    const owner = (await repo.findAccount('org_a'))?.ownerUserId;
    const claimed = await repo.setOwnerIfMissing('org_a', 'usr_3');
    if (owner) expect(claimed).toBeNull();
    expect((await repo.findAccount('org_a'))?.ownerUserId).toBe(owner ?? 'usr_3');
    expect(await repo.setOwnerIfMissing('org_a', 'usr_4')).toBeNull();
  });

  it('sets and clears limits, and answers null for an unknown organization', async () => {
    await repo.openAccount('org_a', NOW);
    expect((await repo.setLimits('org_a', { jobsPerMonth: 3, targetsPerMonth: 50 }, NOW))?.limits).toEqual({ jobsPerMonth: 3, targetsPerMonth: 50 });
    expect((await repo.setLimits('org_a', { jobsPerMonth: null }, NOW))?.limits).toEqual({ targetsPerMonth: 50 });
    expect(await repo.setLimits('org_nope', { jobsPerMonth: 1 }, NOW)).toBeNull();
  });

  it('links a referrer once and notes the reward once', async () => {
    await repo.openAccount('org_new', NOW);
    const links = await Promise.all([repo.linkReferrer('org_new', referrer), repo.linkReferrer('org_new', { ...referrer, code: 'ZZZZ2345' })]);
    expect(links.filter((l) => l !== null)).toHaveLength(1);
    expect(await repo.linkReferrer('org_unknown', referrer)).toBeNull();
    expect(await repo.markReferralRewarded('org_new', NOW, 500)).toMatchObject({ referralRewardedAt: NOW, referralRewardCredits: 500 });
    expect(await repo.markReferralRewarded('org_new', NOW, 500)).toBeNull();
  });

  it('lists the organizations a code referred', async () => {
    for (const org of ['org_1', 'org_2', 'org_3']) await repo.openAccount(org, NOW);
    await repo.linkReferrer('org_1', referrer);
    await repo.linkReferrer('org_2', referrer);
    await repo.linkReferrer('org_3', { ...referrer, code: 'OTHER234' });
    expect((await repo.referredBy('ABCD2345')).map((a) => a._id).sort()).toEqual(['org_1', 'org_2']);
  });
});
