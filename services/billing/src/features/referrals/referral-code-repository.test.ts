import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { ReferralCodeRepository, type ReferralCodeDoc } from './referral-code-repository.ts';

const NOW = '2026-11-15T12:00:00.000Z';
const code = (id: string, userId: string): ReferralCodeDoc => ({ _id: id, userId, organizationId: 'org_a', clicks: 0, signups: 0, createdAt: NOW });

describeOnEachStore('ReferralCodeRepository', (open) => {
  let repo: ReferralCodeRepository;

  beforeEach(async () => {
    repo = new ReferralCodeRepository(await open());
    await repo.init();
  });

  it('gives a user one code and a code one user', async () => {
    expect(await repo.insertCode(code('ABCD2345', 'usr_a'))).toMatchObject({ _id: 'ABCD2345' });
    expect(await repo.insertCode(code('EFGH2345', 'usr_a'))).toBeNull();
    expect(await repo.insertCode(code('ABCD2345', 'usr_b'))).toBeNull();
    expect((await repo.findCodeOfUser('usr_a'))?._id).toBe('ABCD2345');
    expect(await repo.findCodeOfUser('usr_b')).toBeNull();
  });

  it('counts clicks and signups, and answers null for a click on an unknown code', async () => {
    await repo.insertCode(code('ABCD2345', 'usr_a'));
    await Promise.all([repo.recordClick('ABCD2345', NOW), repo.recordClick('ABCD2345', NOW), repo.countSignup('ABCD2345')]);
    expect(await repo.findCode('ABCD2345')).toMatchObject({ clicks: 2, signups: 1, lastClickAt: NOW });
    expect(await repo.recordClick('NOPE2345', NOW)).toBeNull();
  });

  it('stores adopted legacy reward figures once', async () => {
    await repo.insertCode(code('ABCD2345', 'usr_a'));
    await repo.setLegacyRewards('ABCD2345', { rewards: 2, credits: 1000 });
    await repo.setLegacyRewards('ABCD2345', { rewards: 9, credits: 9 });
    expect((await repo.findCode('ABCD2345'))?.legacyRewards).toEqual({ rewards: 2, credits: 1000 });
  });
});
