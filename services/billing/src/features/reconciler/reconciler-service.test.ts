import type { ReserveBody } from '@crawl/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { billingFixture as fixtureOn, closeFixtures, ledgerProblems } from '../../testing/billing-fixture.ts';
import { billingStores } from '../../testing/stores.ts';
import type { LedgerEntryDoc } from '../ledger/index.ts';
import type { ReservationDoc } from '../reservations/index.ts';

const MINUTE = 60_000;
const reserveBody = (jobId: string, targetCount = 2): ReserveBody => ({ organizationId: 'org_a', jobId, jobType: 'search', targetCount, reason: 'job.create' });

afterEach(closeFixtures);

for (const stores of billingStores()) {
  const billingFixture: typeof fixtureOn = (config, extra) => fixtureOn(config, extra, stores);

  describe(`reservation reconciler (${stores.label})`, () => {
    it('releases a held reservation whose job catalog never created, with its quota, after the orphan deadline', async () => {
      const known = new Set(['job_real']);
      const asked: string[] = [];
      const { billing, clock, store } = await billingFixture(
        {},
        {
          jobState: async (jobId) => {
            asked.push(jobId);
            return { exists: known.has(jobId), status: 'running' };
          },
        },
      );
      await billing.reservations.reserve(reserveBody('job_ghost'));
      await billing.reservations.reserve(reserveBody('job_real'));

      // The default deadline is 30 s: a create still storing its job is not asked about sooner.
      clock.advance(20_000);
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedMissingJobs: 0 });
      expect(await billing.ledger.balance('org_a')).toMatchObject({ reserved: 20 });
      expect(asked).toEqual([]);

      clock.advance(11_000);
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedMissingJobs: 1, catalogChecked: true });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 990, reserved: 10, spent: 0, granted: 1000 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });
      expect((await billing.reservations.find('job_ghost'))?.status).toBe('released');
      // Running it again changes nothing, and a job catalog confirmed is not asked about again.
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedMissingJobs: 0 });
      expect(asked.sort()).toEqual(['job_ghost', 'job_real']);
      expect(await billing.ledger.balance('org_a')).toMatchObject({ reserved: 10 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('the orphan check alone gives a hold back within a minute and never releases one whose job exists', async () => {
      const known = new Set<string>();
      const { billing, clock, store } = await billingFixture({}, { jobState: async (jobId) => ({ exists: known.has(jobId), status: 'queued' }) });
      await billing.reservations.reserve(reserveBody('job_never_stored'));
      await billing.reservations.reserve(reserveBody('job_stored'));
      known.add('job_stored');
      expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 980, reserved: 20 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 2, targetsThisMonth: 4 });

      clock.advance(45_000);
      expect(await billing.reconciler.releaseOrphans()).toEqual({ released: 1, confirmed: 1, catalogChecked: true });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 990, reserved: 10, spent: 0, granted: 1000 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });

      // Hours later the stored job's hold is still there, whatever catalog says about it now.
      known.clear();
      clock.advance(6 * 60 * MINUTE);
      expect(await billing.reconciler.releaseOrphans()).toEqual({ released: 0, confirmed: 0, catalogChecked: false });
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedMissingJobs: 0, releasedExpired: 0 });
      expect((await billing.reservations.find('job_stored'))?.status).toBe('held');
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('leaves holds alone when catalog cannot answer, until the hold deadline releases them', async () => {
      const { billing, clock, store } = await billingFixture(
        {},
        {
          jobState: async () => {
            throw new Error('catalog down');
          },
        },
      );
      await billing.reservations.reserve(reserveBody('job_1'));
      clock.advance(60 * MINUTE);
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedMissingJobs: 0, releasedExpired: 0 });
      expect(await billing.ledger.balance('org_a')).toMatchObject({ reserved: 10 });

      clock.advance(24 * 60 * MINUTE);
      expect(await billing.reconciler.reconcile()).toMatchObject({ releasedExpired: 1 });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 1000, reserved: 0, spent: 0, granted: 1000 });
      // The job existed, so its quota stays used; a late settlement changes nothing.
      expect((await billing.operations.usageReport('org_a')).used.jobsThisMonth).toBe(1);
      expect(
        await billing.reservations.settle({ organizationId: 'org_a', jobId: 'job_1', succeededTargets: 2, failedTargets: 0, cancelledTargets: 0 }),
      ).toMatchObject({
        captured: 0,
        alreadySettled: true,
      });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('runs only the age rules when catalog is not reachable at all', async () => {
      const { billing, clock } = await billingFixture({ RESERVATION_MAX_HOLD_MS: 2 * 60 * MINUTE });
      await billing.reservations.reserve(reserveBody('job_1'));
      clock.advance(3 * 60 * MINUTE);
      expect(await billing.reconciler.reconcile()).toEqual({
        abortedPending: 0,
        resumed: 0,
        releasedMissingJobs: 0,
        releasedExpired: 1,
        rolledForward: 0,
        catalogChecked: false,
      });
    });

    it('rolls back a reservation whose request died mid-way (credits held, never confirmed)', async () => {
      const { billing, clock, store } = await billingFixture();
      // The request died after holding the credits and counting the job, before marking the reservation held.
      await billing.reservations.reserve(reserveBody('job_1'));
      await store.collection<ReservationDoc>('reservations').updateOne({ _id: 'job_1' }, { $set: { status: 'pending' } });
      expect(await billing.reconciler.reconcile()).toMatchObject({ abortedPending: 0 });

      clock.advance(6 * MINUTE);
      expect(await billing.reconciler.reconcile()).toMatchObject({ abortedPending: 1 });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 1000, reserved: 0, spent: 0, granted: 1000 });
      expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 0, targetsThisMonth: 0 });
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('finishes a settlement interrupted between its decision and its ledger entries', async () => {
      const { billing, clock, store } = await billingFixture();
      await billing.reservations.reserve(reserveBody('job_1', 4));
      await store
        .collection<ReservationDoc>('reservations')
        .updateOne({ _id: 'job_1' }, { $set: { status: 'settling', captured: 10, released: 10, updatedAt: clock.now().toISOString() } });
      clock.advance(2 * MINUTE);
      expect(await billing.reconciler.reconcile()).toMatchObject({ resumed: 1 });
      expect(await billing.ledger.balance('org_a')).toEqual({ available: 990, reserved: 0, spent: 10, granted: 1000 });
      expect((await billing.reservations.find('job_1'))?.status).toBe('settled');
      expect(await ledgerProblems(store)).toEqual([]);
    });

    it('applies a ledger entry logged before a crash and flags it applied', async () => {
      const { billing, clock, store } = await billingFixture();
      await billing.operations.openAccount('org_a', 'usr_a');
      await store.collection<LedgerEntryDoc>('ledger').insertOne({
        _id: 'led_crash',
        organizationId: 'org_a',
        version: 2,
        key: 'admin:crash',
        kind: 'admin_grant',
        amount: 50,
        delta: { available: 50, reserved: 0, spent: 0, granted: 50 },
        reason: 'grant',
        balanceAfter: { available: 1050, reserved: 0, spent: 0, granted: 1050 },
        applied: false,
        createdAt: clock.now().toISOString(),
      });
      clock.advance(2 * MINUTE);
      expect(await billing.reconciler.reconcile()).toMatchObject({ rolledForward: 1 });
      expect(await store.collection('balances').findOne({ _id: 'org_a' })).toMatchObject({ available: 1050, granted: 1050, version: 2 });
      expect(await store.collection('ledger').count({ applied: false })).toBe(0);
      expect(await ledgerProblems(store)).toEqual([]);
    });
  });
}
