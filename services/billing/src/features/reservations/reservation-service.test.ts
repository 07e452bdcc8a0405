import type { ReserveBody } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture as fixtureOn, closeFixtures, ledgerProblems } from '../../testing/billing-fixture.ts';
import { billingStores } from '../../testing/stores.ts';

const reserveBody = (organizationId: string, jobId: string, targetCount: number, extra: Partial<ReserveBody> = {}): ReserveBody => ({
  organizationId,
  jobId,
  jobType: 'search',
  targetCount,
  reason: 'job.create',
  ...extra,
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.statusCode} ${error.code}`;
    throw error;
  }
}

afterEach(closeFixtures);

for (const stores of billingStores()) {
  const billingFixture: typeof fixtureOn = (config, extra) => fixtureOn(config, extra, stores);

  describe(`accounts (${stores.label})`, () => {
    it('grants the signup bonus once, however often the account is opened (explicitly or lazily)', async () => {
      const { billing, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_lazy', 'job_1', 1));
      await billing.operations.openAccount('org_lazy', 'usr_1');
      await billing.operations.openAccount('org_lazy', 'usr_1');
      await Promise.all([
        billing.operations.openAccount('org_race', 'usr_2'),
        billing.operations.openAccount('org_race', 'usr_2'),
        billing.accounts.ensure('org_race'),
      ]);
      expect(await billing.ledger.balance('org_lazy')).toEqual({ available: 995, reserved: 5, spent: 0, granted: 1000 });
      expect(await billing.ledger.balance('org_race')).toEqual({ available: 1000, reserved: 0, spent: 0, granted: 1000 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('takes the bonus from SIGNUP_BONUS_CREDITS', async () => {
      const { billing } = await billingFixture({ SIGNUP_BONUS_CREDITS: 250 });
      expect(await billing.operations.openAccount('org_a', 'usr_a')).toMatchObject({ available: 250, granted: 250 });
    });
  });

  describe(`reservations (${stores.label})`, () => {
    it('holds 5 credits per keyword and 2 per ASIN, times unitsPerTarget', async () => {
      const { billing } = await billingFixture();
      expect(await billing.reservations.reserve(reserveBody('org_a', 'job_s', 4))).toMatchObject({ credits: 20, creditsPerTarget: 5, status: 'held' });
      expect(await billing.reservations.reserve(reserveBody('org_a', 'job_d', 4, { jobType: 'details' }))).toMatchObject({ credits: 8, creditsPerTarget: 2 });
      expect(await billing.reservations.reserve(reserveBody('org_a', 'job_p', 2, { unitsPerTarget: 3 }))).toMatchObject({ credits: 30, creditsPerTarget: 15 });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 942, reserved: 58, spent: 0, granted: 1000 });
    });

    it('is idempotent on the job id: a repeated call reserves and counts once', async () => {
      const { billing, store } = await billingFixture();
      const first = await billing.reservations.reserve(reserveBody('org_a', 'job_1', 3));
      const again = await billing.reservations.reserve(reserveBody('org_a', 'job_1', 3));
      expect(again).toEqual(first);
      expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 985, reserved: 15 });
      expect((await billing.operations.usageReport('org_a')).used).toEqual({ jobsThisMonth: 1, targetsThisMonth: 3, exportsThisMonth: 0 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('refuses another organization reusing a job id', async () => {
      const { billing } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 1));
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_b', 'job_1', 1)))).toBe('409 CONFLICT');
    });

    it('answers 402 INSUFFICIENT_CREDITS with nothing reserved and no quota consumed', async () => {
      const { billing, store } = await billingFixture({ SIGNUP_BONUS_CREDITS: 20 });
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_1', 5)))).toBe('402 INSUFFICIENT_CREDITS');
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 20, reserved: 0, spent: 0, granted: 20 });
      expect((await billing.operations.usageReport('org_a')).used).toEqual({ jobsThisMonth: 0, targetsThisMonth: 0, exportsThisMonth: 0 });
      expect(await billing.reservations.find('job_1')).toBeNull();
      // The same job id can be reserved once credits allow it.
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_1', 4)))).toBe('ok');
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('answers 403 FORBIDDEN at the job limit with nothing consumed', async () => {
      const { billing } = await billingFixture({ LIMIT_JOBS_PER_MONTH: 2 });
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 1));
      await billing.reservations.reserve(reserveBody('org_a', 'job_2', 1));
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_3', 1)))).toBe('403 FORBIDDEN');
      expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 990, reserved: 10 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 2, targetsThisMonth: 2 });
    });

    it('answers 403 FORBIDDEN when the targets would exceed the monthly target limit, and does not count the job', async () => {
      const { billing } = await billingFixture({ LIMIT_TARGETS_PER_MONTH: 10 });
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 8));
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_2', 3)))).toBe('403 FORBIDDEN');
      expect((await billing.operations.usageReport('org_a')).used).toEqual({ jobsThisMonth: 1, targetsThisMonth: 8, exportsThisMonth: 0 });
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_3', 2)))).toBe('ok');
    });

    it('gives the job quota back when the credits fail', async () => {
      const { billing } = await billingFixture({ SIGNUP_BONUS_CREDITS: 10, LIMIT_JOBS_PER_MONTH: 1 });
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_big', 3)))).toBe('402 INSUFFICIENT_CREDITS');
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_small', 2)))).toBe('ok');
    });

    it('lets racing reservations take the last credits without overdrawing or overcounting', async () => {
      const { billing, store } = await billingFixture({ SIGNUP_BONUS_CREDITS: 100, LIMIT_JOBS_PER_MONTH: 1000, LIMIT_TARGETS_PER_MONTH: 10_000 });
      const burst = stores.burst(50, 16);
      const outcomes = await Promise.all(Array.from({ length: burst }, (_, i) => codeOf(billing.reservations.reserve(reserveBody('org_a', `job_${i}`, 3)))));
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(6);
      expect(outcomes.filter((o) => o === '402 INSUFFICIENT_CREDITS')).toHaveLength(burst - 6);
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 10, reserved: 90, spent: 0, granted: 100 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 6, targetsThisMonth: 18 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('lets racing reservations take the last jobs of the month without exceeding the limit', async () => {
      const { billing, store } = await billingFixture({ LIMIT_JOBS_PER_MONTH: 5 });
      const burst = stores.burst(30, 12);
      const outcomes = await Promise.all(Array.from({ length: burst }, (_, i) => codeOf(billing.reservations.reserve(reserveBody('org_a', `job_${i}`, 1)))));
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(5);
      expect(outcomes.filter((o) => o === '403 FORBIDDEN')).toHaveLength(burst - 5);
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 5, targetsThisMonth: 5 });
      expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 975, reserved: 25 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('starts the monthly counters again at the UTC month boundary', async () => {
      const { billing, clock } = await billingFixture({ LIMIT_JOBS_PER_MONTH: 1 });
      clock.set('2026-11-30T23:59:59.000Z');
      await billing.reservations.reserve(reserveBody('org_a', 'job_nov', 2));
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_nov_2', 1)))).toBe('403 FORBIDDEN');
      clock.set('2026-12-01T00:00:00.000Z');
      const december = await billing.operations.usageReport('org_a');
      expect(december.month).toBe('2026-12');
      expect(december.used).toEqual({ jobsThisMonth: 0, targetsThisMonth: 0, exportsThisMonth: 0 });
      expect(await codeOf(billing.reservations.reserve(reserveBody('org_a', 'job_dec', 1)))).toBe('ok');
      // Releasing November's job gives back November's quota, not December's.
      await billing.reservations.release('job_nov', 'org_a', 'never persisted');
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 1 });
      clock.set('2026-11-30T23:59:59.500Z');
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 0, targetsThisMonth: 0 });
    });
  });

  describe(`settlement (${stores.label})`, () => {
    it('captures successful targets and releases the rest, exactly once however often it is called', async () => {
      const { billing, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 10));
      const first = await billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 6, failedTargets: 3, cancelledTargets: 1 });
      expect(first).toEqual({ jobId: 'job_1', captured: 30, released: 20, alreadySettled: false });
      const repeats = await Promise.all([
        billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 10, failedTargets: 0, cancelledTargets: 0 }),
        billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 0, failedTargets: 10, cancelledTargets: 0 }),
      ]);
      for (const repeat of repeats) expect(repeat).toEqual({ jobId: 'job_1', captured: 30, released: 20, alreadySettled: true });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 970, reserved: 0, spent: 30, granted: 1000 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('releases the targets delivered without charge and records the counts on both ledger entries, once', async () => {
      const { billing, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 10));
      const settle = () =>
        billing.reservations.settle({
          organizationId: 'org_a',
          jobId: 'job_1',
          succeededTargets: 4,
          unchargedTargets: 3,
          failedTargets: 2,
          cancelledTargets: 1,
        });
      expect(await settle()).toEqual({ jobId: 'job_1', captured: 20, released: 30, alreadySettled: false });
      expect(await settle()).toEqual({ jobId: 'job_1', captured: 20, released: 30, alreadySettled: true });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 980, reserved: 0, spent: 20, granted: 1000 });
      const charges = { chargedTargets: 4, unchargedTargets: 3 };
      expect(await billing.ledger.findByKey('capture:job_1')).toMatchObject({ kind: 'capture', amount: 20, charges });
      expect(await billing.ledger.findByKey('release:job_1')).toMatchObject({
        kind: 'release',
        amount: 30,
        charges,
        reason: 'Settlement: failed, blocked, cancelled or uncharged targets',
      });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('captures the targets answered from the page cache at the cached price, exactly, and says so on the ledger', async () => {
      const { billing, store } = await billingFixture();
      // Search: 5 credits a page, 2 from the cache (CACHED_CREDITS_SEARCH); 4 keywords of 2 pages hold 40.
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 4, { unitsPerTarget: 2 }));
      const settle = () =>
        billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 3, failedTargets: 1, cancelledTargets: 0, cachedUnits: 4 });
      // 3 charged keywords = 6 pages: 2 fetched (10) + 4 cached (8) = 18; the rest (22) is released.
      expect(await settle()).toEqual({ jobId: 'job_1', captured: 18, released: 22, alreadySettled: false });
      expect(await settle()).toEqual({ jobId: 'job_1', captured: 18, released: 22, alreadySettled: true });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 982, reserved: 0, spent: 18, granted: 1000 });
      expect(await billing.ledger.findByKey('capture:job_1')).toMatchObject({
        kind: 'capture',
        amount: 18,
        charges: { chargedTargets: 3, unchargedTargets: 0, cachedUnits: 4 },
        reason: 'Settlement: successful targets, 4 unit(s) from the page cache at the cached price',
      });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('takes the cached price of details targets from CACHED_CREDITS_DETAILS', async () => {
      const { billing, store } = await billingFixture({ CACHED_CREDITS_DETAILS: 0 });
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 5, { jobType: 'details' }));
      const settled = await billing.reservations.settle({
        organizationId: 'org_a',
        jobId: 'job_1',
        succeededTargets: 5,
        failedTargets: 0,
        cancelledTargets: 0,
        cachedUnits: 3,
      });
      expect(settled).toEqual({ jobId: 'job_1', captured: 4, released: 6, alreadySettled: false });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('finishes an interrupted settlement with the counts it decided', async () => {
      const { billing, repositories, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 2));
      const held = await billing.reservations.find('job_1');
      // The decision is stored, the entries are not written yet (a crash in between).
      await repositories.reservations.moveToSettling(
        'job_1',
        { captured: 0, released: 10, outcome: { succeeded: 0, failed: 0, cancelled: 0, uncharged: 2 }, charges: { chargedTargets: 0, unchargedTargets: 2 } },
        held!.createdAt,
      );
      const repeat = await billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 2, failedTargets: 0, cancelledTargets: 0 });
      expect(repeat).toEqual({ jobId: 'job_1', captured: 0, released: 10, alreadySettled: true });
      expect(await billing.ledger.findByKey('capture:job_1')).toBeNull();
      expect(await billing.ledger.findByKey('release:job_1')).toMatchObject({ amount: 10, charges: { chargedTargets: 0, unchargedTargets: 2 } });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 1000, reserved: 0, spent: 0, granted: 1000 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('settles once when concurrent first calls race', async () => {
      const { billing, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 4, { jobType: 'details' }));
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 4, failedTargets: 0, cancelledTargets: 0 }),
        ),
      );
      expect(results.filter((r) => !r.alreadySettled)).toHaveLength(1);
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 992, reserved: 0, spent: 8, granted: 1000 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('does not settle another organization’s job', async () => {
      const { billing } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 1));
      expect(
        await codeOf(billing.reservations.settle({ organizationId: 'org_b', jobId: 'job_1', succeededTargets: 1, failedTargets: 0, cancelledTargets: 0 })),
      ).toBe('404 NOT_FOUND');
    });

    it('releases a never-persisted job with its quota, and refuses to release a settled one', async () => {
      const { billing, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('org_a', 'job_1', 2));
      await billing.reservations.reserve(reserveBody('org_a', 'job_2', 2));
      const released = await billing.reservations.release('job_1', 'org_a', 'catalog could not persist the job');
      expect(released).toMatchObject({ status: 'released', released: 10, captured: 0 });
      expect(await billing.reservations.release('job_1', 'org_a', 'again')).toMatchObject({ status: 'released', released: 10 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });
      await billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_2', succeededTargets: 2, failedTargets: 0, cancelledTargets: 0 });
      expect(await codeOf(billing.reservations.release('job_2', 'org_a', 'late'))).toBe('409 CONFLICT');
      // A settlement after a release reports the release and moves nothing.
      expect(
        await billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 2, failedTargets: 0, cancelledTargets: 0 }),
      ).toEqual({
        jobId: 'job_1',
        captured: 0,
        released: 10,
        alreadySettled: true,
      });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 990, reserved: 0, spent: 10, granted: 1000 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('keeps the invariant through a mixed storm of reservations and settlements', async () => {
      const { billing, store } = await billingFixture({ SIGNUP_BONUS_CREDITS: 200, LIMIT_JOBS_PER_MONTH: 1000, LIMIT_TARGETS_PER_MONTH: 100_000 });
      const work = Array.from({ length: stores.burst(40, 16) }, async (_, i) => {
        const org = i % 2 === 0 ? 'org_even' : 'org_odd';
        const outcome = await codeOf(billing.reservations.reserve(reserveBody(org, `job_${i}`, 1 + (i % 4))));
        if (outcome === 'ok') {
          await billing.reservations.settle({ organizationId: org, jobId: `job_${i}`, succeededTargets: i % 3, failedTargets: 1, cancelledTargets: 0 });
        }
        return outcome;
      });
      const outcomes = await Promise.all(work);
      expect(outcomes.every((o) => o === 'ok' || o === '402 INSUFFICIENT_CREDITS')).toBe(true);
      for (const org of ['org_even', 'org_odd']) expect((await billing.ledger.balance(org)).reserved).toBe(0);
      expect(await ledgerProblems(store)).toEqual([]);
    });
  });

  describe(`exports (${stores.label})`, () => {
    it('counts exports against exportsPerMonth and refuses the one over the limit', async () => {
      const { billing } = await billingFixture({ LIMIT_EXPORTS_PER_MONTH: 2 });
      expect(await billing.operations.consumeExport('org_a')).toEqual({ exportsThisMonth: 1, exportsPerMonth: 2 });
      expect(await billing.operations.consumeExport('org_a')).toEqual({ exportsThisMonth: 2, exportsPerMonth: 2 });
      expect(await codeOf(billing.operations.consumeExport('org_a'))).toBe('403 FORBIDDEN');
      expect((await billing.operations.usageReport('org_a')).used.exportsThisMonth).toBe(2);
    });
  });
}
