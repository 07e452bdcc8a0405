import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { ReservationRepository, type ReservationDoc } from './reservation-repository.ts';

const T0 = '2026-11-15T12:00:00.000Z';
const T1 = '2026-11-15T12:05:00.000Z';

const claim = (jobId: string, attempt = 'a1', extra: Partial<ReservationDoc> = {}): ReservationDoc => ({
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
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

const refusal = { statusCode: 402, code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits', details: [{ required: 10, available: 0 }] };

describeOnEachStore('ReservationRepository', (open) => {
  let repo: ReservationRepository;

  beforeEach(async () => {
    repo = new ReservationRepository(await open());
    await repo.init();
  });

  it('claims a job id once; racing claims get the first claim back', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => repo.takeReservation(claim('job_1', `a${i}`))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)!.claim.attempt;
    expect(results.every((r) => r.claim.attempt === winner)).toBe(true);
    expect((await repo.findReservation('job_1'))?.attempt).toBe(winner);
  });

  it('moves pending → held only for the attempt that was read', async () => {
    await repo.takeReservation(claim('job_1', 'a1'));
    expect(await repo.moveToHeld(claim('job_1', 'a0'), T1)).toBeNull();
    expect(await repo.moveToHeld(claim('job_1', 'a1'), T1)).toMatchObject({ status: 'held', updatedAt: T1 });
    expect(await repo.moveToHeld(claim('job_1', 'a1'), T1)).toBeNull();
  });

  it('matches claims from before attempts existed on the missing attempt', async () => {
    const legacy = claim('job_old');
    delete legacy.attempt;
    await repo.takeReservation(legacy);
    expect(await repo.moveToHeld(claim('job_old', 'a1'), T1)).toBeNull();
    expect(await repo.moveToHeld(legacy, T1)).toMatchObject({ status: 'held' });
  });

  it('records a refusal once, reopens the refused claim for one new attempt, and closes only that refused attempt', async () => {
    await repo.takeReservation(claim('job_1', 'a1'));
    const refused = (await repo.markRefused(claim('job_1', 'a1'), refusal, T1))!;
    expect(refused).toMatchObject({ status: 'refused', refusal });
    expect(await repo.markRefused(claim('job_1', 'a1'), refusal, T1)).toBeNull();
    expect(await repo.moveToHeld(claim('job_1', 'a1'), T1)).toBeNull();

    const fresh = { ...claim('job_1', 'a2', { targetCount: 4, credits: 20 }) };
    const reopened = await Promise.all([repo.reopenRefused(refused, fresh), repo.reopenRefused(refused, { ...fresh, attempt: 'a3' })]);
    expect(reopened.filter((r) => r !== null)).toHaveLength(1);
    const current = (await repo.findReservation('job_1'))!;
    expect(current).toMatchObject({ status: 'pending', credits: 20 });
    expect(current.refusal).toBeUndefined();
    expect(await repo.markVoid(refused, T1)).toBe(false);

    const again = (await repo.markRefused(current, refusal, T1))!;
    expect(await repo.markVoid(refused, T1)).toBe(false);
    expect(await repo.markVoid(again, T1)).toBe(true);
    expect(await repo.findReservation('job_1')).toMatchObject({ status: 'void', attempt: again.attempt });
    // A void claim can still be tried again, once.
    expect(await repo.reopenRefused(again, { ...fresh, attempt: 'a9' })).toMatchObject({ status: 'pending', attempt: 'a9' });
    expect(await repo.reopenRefused(again, { ...fresh, attempt: 'a10' })).toBeNull();
  });

  it('decides a settlement once when first settlements race', async () => {
    await repo.takeReservation(claim('job_1'));
    await repo.moveToHeld(claim('job_1'), T1);
    const outcome = { succeeded: 2, failed: 0, cancelled: 0, uncharged: 1 };
    const charges = { chargedTargets: 2, unchargedTargets: 1 };
    const decided = await Promise.all(
      Array.from({ length: 5 }, (_, i) => repo.moveToSettling('job_1', { captured: 10 - i, released: i, outcome, charges }, T1)),
    );
    expect(decided.filter((d) => d !== null)).toHaveLength(1);
    expect(await repo.findReservation('job_1')).toMatchObject({ status: 'settling', outcome, charges });
    expect(await repo.markSettled('job_1', T1)).toMatchObject({ status: 'settled' });
    expect(await repo.markSettled('job_1', T1)).toBeNull();
    expect(await repo.moveToReleasing((await repo.findReservation('job_1'))!, 'late', true, T1)).toBeNull();
  });

  it('starts a release only from the state it was read in, and records what was given back', async () => {
    await repo.takeReservation(claim('job_1'));
    const pending = (await repo.findReservation('job_1'))!;
    await repo.moveToHeld(pending, T1);
    expect(await repo.moveToReleasing(pending, 'stale read', true, T1)).toBeNull();
    const held = (await repo.findReservation('job_1'))!;
    expect(await repo.moveToReleasing(held, 'never persisted', true, T1)).toMatchObject({
      status: 'releasing',
      released: 10,
      returnQuota: true,
      releaseReason: 'never persisted',
    });
    expect(await repo.markReleased('job_1', 10, T1)).toMatchObject({ status: 'released', released: 10 });
    // A late hold found by a repeat corrects the figure of a released claim.
    expect(await repo.markReleased('job_1', 12, T1)).toMatchObject({ released: 12 });
  });

  it('finds stale and unconfirmed reservations oldest first, by index', async () => {
    await repo.takeReservation(claim('job_old', 'a', { createdAt: '2026-11-15T11:00:00.000Z', updatedAt: '2026-11-15T11:00:00.000Z' }));
    await repo.takeReservation(claim('job_older', 'a', { createdAt: '2026-11-15T10:00:00.000Z', updatedAt: '2026-11-15T10:00:00.000Z' }));
    await repo.takeReservation(claim('job_new', 'a'));
    expect((await repo.staleReservations('pending', '2026-11-15T11:30:00.000Z', 'createdAt', 10)).map((r) => r._id)).toEqual(['job_older', 'job_old']);
    expect(await repo.staleReservations('held', '2026-11-15T11:30:00.000Z', 'createdAt', 10)).toEqual([]);
    for (const id of ['job_old', 'job_older', 'job_new']) await repo.moveToHeld(claim(id, 'a'), T1);
    await repo.confirmJob('job_older');
    expect((await repo.unconfirmedHolds('2026-11-15T11:30:00.000Z', 10)).map((r) => r._id)).toEqual(['job_old']);
    expect((await repo.staleReservations('held', '2026-11-15T12:10:00.000Z', 'updatedAt', 2)).map((r) => r._id)).toHaveLength(2);
  });
});
