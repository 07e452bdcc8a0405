import { ManualClock } from '@crawl/clock';
import { startTestService, type TestService } from '@crawl/server/testing';
import { BillingClient } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Catalog died between billing's hold and storing the job: nobody will settle that hold. Billing's
 * orphan check (its own timer, here every 100 ms of real time) asks catalog and gives it back
 * once the hold is 30 s old (the default), and never touches the hold of a job that exists.
 */
describe('a reservation whose job was never stored', () => {
  let svc: TestService;
  const clock = new ManualClock('2026-12-10T10:00:00.000Z');
  beforeAll(async () => {
    svc = await startTestService({ clock, env: { RESERVATION_ORPHAN_CHECK_INTERVAL_MS: '100', RECONCILE_INTERVAL_MS: '0' } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('is released with its quota within a minute; a stored job keeps its hold', async () => {
    const user = await svc.registerUser();
    const projectId = (await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'p' } })).body.data.id as string;
    const stored = await svc.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: user.token, body: { type: 'search', targets: ['a', 'b'] } });
    expect(stored.status).toBe(201);
    const storedJobId = stored.body.data.id as string;

    // What catalog does before storing a job, through billing's internal API; then it "dies".
    const billing = new BillingClient(svc.context('catalog').client('billing'));
    await billing.reserve({ organizationId: user.organizationId, jobId: 'job_lost_in_a_crash', jobType: 'search', targetCount: 3, reason: 'job.create' });
    const usage = async () => (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data;
    const before = await usage();
    expect(before.used).toMatchObject({ jobsThisMonth: 2, targetsThisMonth: 5 });
    const lostCredits = before.credits.reserved - stored.body.data.creditsReserved;
    expect(lostCredits).toBeGreaterThan(0);

    // Not yet 30 s old: left alone (a create may still be storing its job).
    clock.advance(20_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await usage()).credits).toEqual(before.credits);

    clock.advance(25_000);
    await vi.waitFor(async () => expect((await usage()).credits.reserved).toBe(stored.body.data.creditsReserved), { timeout: 5_000 });
    const after = await usage();
    expect(after.credits.available).toBe(before.credits.available + lostCredits);
    expect(after.used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });

    // Much later, the stored job's hold is still held, never released as an orphan.
    clock.advance(60 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const reservations = svc.store('billing').collection<{ _id: string; status: string }>('reservations');
    expect((await reservations.findOne({ _id: storedJobId }))?.status).toBe('held');
    expect((await reservations.findOne({ _id: 'job_lost_in_a_crash' }))?.status).toBe('released');
    expect((await usage()).credits.reserved).toBe(stored.body.data.creditsReserved);
  });
});
