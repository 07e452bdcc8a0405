import { loadConfig } from '@crawl/config';
import type { ReserveBody } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import { ManualClock } from '@crawl/clock';
import type { DocumentStore } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { expect, it } from 'vitest';
import { composeBilling, type BillingServices } from '../../composition.ts';
import { BillingConfig } from '../../config.ts';
import { billingRepositories, ensureBillingIndexes, type BillingRepositories } from '../../repositories.ts';
import { ledgerProblems, testResources } from '../../testing/billing-fixture.ts';
import type { ReservationDoc } from './reservation-repository.ts';

const MINUTE = 60_000;
const body = (jobId: string, targetCount = 2): ReserveBody => ({ organizationId: 'org_a', jobId, jobType: 'search', targetCount, reason: 'job.create' });

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.statusCode}`;
    throw error;
  }
}

describeOnEachStore('Reservations: a repeated reserve is idempotent end to end', (open, backend) => {
  const burst = backend === 'embedded' ? 20 : 8;

  async function setUp(
    config: Partial<BillingConfig> = {},
  ): Promise<{ billing: BillingServices; repositories: BillingRepositories; store: DocumentStore; clock: ManualClock }> {
    const store = await open();
    const clock = new ManualClock('2026-11-15T12:00:00.000Z');
    const repositories = billingRepositories(store);
    await ensureBillingIndexes(repositories);
    const billing = composeBilling(testResources(store, clock), repositories, loadConfig(BillingConfig, {}, config));
    await billing.operations.openAccount('org_a', 'usr_a');
    return { billing, repositories, store, clock };
  }

  /** The first call's claim, as a request that died right after claiming left it. */
  function deadClaim(repositories: BillingRepositories, clock: ManualClock, jobId: string, attempt: string): Promise<{ claim: ReservationDoc }> {
    const now = clock.now().toISOString();
    return repositories.reservations.takeReservation({
      _id: jobId,
      organizationId: 'org_a',
      attempt,
      jobType: 'search',
      targetCount: 2,
      unitsPerTarget: 1,
      creditsPerTarget: 5,
      credits: 10,
      reason: 'job.create',
      month: '2026-11',
      status: 'pending',
      captured: 0,
      released: 0,
      createdAt: now,
      updatedAt: now,
    });
  }

  async function expectHeldOnce(billing: BillingServices, store: DocumentStore, available: number): Promise<void> {
    expect(await billing.ledger.balance('org_a')).toEqual({ available, reserved: 1000 - available, spent: 0, granted: 1000 });
    expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });
    expect(await ledgerProblems(store)).toEqual([]);
  }

  it('answers a repeat with the original reservation while the first call is still pending (it died after claiming)', async () => {
    const { billing, repositories, store, clock } = await setUp();
    await deadClaim(repositories, clock, 'job_1', 'a1');
    const repeat = await billing.reservations.reserve(body('job_1'));
    expect(repeat).toMatchObject({ jobId: 'job_1', credits: 10, status: 'held', createdAt: '2026-11-15T12:00:00.000Z' });
    expect(await billing.reservations.reserve(body('job_1'))).toEqual(repeat);
    expect(await billing.ledger.findByKey('reserve:job_1')).toMatchObject({ attempt: 'a1' });
    await expectHeldOnce(billing, store, 990);
  });

  it('finishes a first call that died after counting the quota, or after holding the credits, without taking either twice', async () => {
    const { billing, repositories, store, clock } = await setUp();
    await deadClaim(repositories, clock, 'job_q', 'aq');
    await billing.usage.consumeJob('org_a', '2026-11', 'job_q', 2, { jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 }, 'aq');
    expect(await billing.reservations.reserve(body('job_q'))).toMatchObject({ status: 'held' });
    await expectHeldOnce(billing, store, 990);

    await deadClaim(repositories, clock, 'job_c', 'ac');
    await billing.usage.consumeJob('org_a', '2026-11', 'job_c', 2, { jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 }, 'ac');
    await billing.ledger.record({
      organizationId: 'org_a',
      key: 'reserve:job_c',
      kind: 'reservation',
      amount: 10,
      reason: 'Reservation for job.create',
      jobId: 'job_c',
      attempt: 'ac',
    });
    expect(await billing.reservations.reserve(body('job_c'))).toMatchObject({ status: 'held' });
    expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 980, reserved: 20 });
    expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 2, targetsThisMonth: 4 });
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('gives every one of N concurrent identical calls the same reservation: credits held once, quota counted once', async () => {
    const { billing, store } = await setUp();
    const views = await Promise.all(Array.from({ length: burst }, () => billing.reservations.reserve(body('job_1'))));
    for (const view of views) expect(view).toEqual(views[0]);
    expect(views[0]).toMatchObject({ status: 'held', credits: 10 });
    await expectHeldOnce(billing, store, 990);
  });

  it('answers every concurrent repeat of a refused call with the same refusal and leaves nothing consumed', async () => {
    const { billing, store } = await setUp({ SIGNUP_BONUS_CREDITS: 5, LIMIT_JOBS_PER_MONTH: 1 });
    const poor = await Promise.all(Array.from({ length: burst }, () => outcome(billing.reservations.reserve(body('job_poor')))));
    expect(new Set(poor)).toEqual(new Set(['402']));
    await billing.reservations.reserve({ ...body('job_fits', 1) });
    const over = await Promise.all(Array.from({ length: burst }, () => outcome(billing.reservations.reserve(body('job_over', 1)))));
    expect(new Set(over)).toEqual(new Set(['403']));
    expect(await billing.ledger.balance('org_a')).toEqual({ available: 0, reserved: 5, spent: 0, granted: 5 });
    expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 1 });
    expect(await billing.reservations.find('job_poor')).toBeNull();
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('undoes credits a racing driver held after its attempt was refused, and burns that job id for later attempts', async () => {
    const { billing, repositories, store, clock } = await setUp({ SIGNUP_BONUS_CREDITS: 5 });
    expect(await outcome(billing.reservations.reserve(body('job_1')))).toBe('402');
    const refused = (await repositories.reservations.findReservation('job_1'))!;
    expect(refused).toMatchObject({ status: 'refused', refusal: { statusCode: 402 } });
    // Credits arrive, and a driver of the refused attempt that was still running holds them.
    await billing.ledger.record({ organizationId: 'org_a', key: 'admin:topup', kind: 'admin_grant', amount: 100, reason: 'top-up' });
    await billing.ledger.record({
      organizationId: 'org_a',
      key: 'reserve:job_1',
      kind: 'reservation',
      amount: 10,
      reason: 'late',
      jobId: 'job_1',
      attempt: refused.attempt!,
    });
    // A new attempt cannot take the key over: refused, nothing of its own kept.
    expect(await outcome(billing.reservations.reserve(body('job_1')))).toBe('409');
    expect((await billing.operations.usageReport('org_a')).used.jobsThisMonth).toBe(0);
    clock.advance(2 * MINUTE);
    await billing.reconciler.reconcile();
    expect(await billing.ledger.balance('org_a')).toEqual({ available: 105, reserved: 0, spent: 0, granted: 105 });
    expect(await repositories.reservations.findReservation('job_1')).toMatchObject({ status: 'void' });
    expect(await billing.reservations.find('job_1')).toBeNull();
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('stays consistent when the reconciler rolls back a stale pending claim while a repeat drives it', async () => {
    const { billing, repositories, store, clock } = await setUp({ LIMIT_JOBS_PER_MONTH: 100 });
    const rounds = backend === 'embedded' ? 6 : 3;
    for (let i = 0; i < rounds; i += 1) await deadClaim(repositories, clock, `job_${i}`, `a${i}`);
    clock.advance(6 * MINUTE);
    const [, ...repeats] = await Promise.all([
      billing.reconciler.reconcile(),
      ...Array.from({ length: rounds }, (_, i) => outcome(billing.reservations.reserve(body(`job_${i}`)))),
    ]);
    let held = 0;
    for (let i = 0; i < rounds; i += 1) {
      const claim = (await billing.reservations.find(`job_${i}`))!;
      expect(['held', 'released']).toContain(claim.status);
      if (claim.status === 'held') {
        held += 1;
        expect(repeats[i]).toBe('ok');
      } else {
        expect(['ok', '409']).toContain(repeats[i]);
      }
    }
    // Whatever won each race, the books and the counters agree with the claims.
    expect(await billing.ledger.balance('org_a')).toMatchObject({ reserved: 10 * held });
    expect((await billing.operations.usageReport('org_a')).used).toMatchObject({ jobsThisMonth: held, targetsThisMonth: 2 * held });
    expect(await ledgerProblems(store)).toEqual([]);
  });

  it('answers a repeat after the reconciler rolled the claim back with the released reservation, taking nothing', async () => {
    const { billing, repositories, store, clock } = await setUp();
    await deadClaim(repositories, clock, 'job_1', 'a1');
    await billing.usage.consumeJob('org_a', '2026-11', 'job_1', 2, { jobsPerMonth: 10, targetsPerMonth: 100, exportsPerMonth: 20 }, 'a1');
    clock.advance(6 * MINUTE);
    expect(await billing.reconciler.reconcile()).toMatchObject({ abortedPending: 1 });
    expect(await billing.reservations.reserve(body('job_1'))).toMatchObject({ status: 'released' });
    expect(await billing.ledger.balance('org_a')).toMatchObject({ available: 1000, reserved: 0 });
    expect((await billing.operations.usageReport('org_a')).used.jobsThisMonth).toBe(0);
    expect(await ledgerProblems(store)).toEqual([]);
  });
});
