import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../testing/catalog-harness.ts';

describe.each(testBackends())('job estimates and maxCredits ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;

  const estimate = (body: unknown, token = alice.token, project = projectId) =>
    h.request({ method: 'POST', url: `/projects/${project}/jobs/estimate`, token, body });
  const createJob = (body: unknown, token = alice.token) => h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token, body });

  beforeEach(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers what the create would reserve, with nothing reserved, stored or enqueued', async () => {
    const res = await estimate({ type: 'search', targets: ['laptop', ' Laptop', 'mouse'], config: { pages: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'search',
      targetCount: 2,
      unitsPerTarget: 3,
      creditsPerUnit: 5,
      credits: 30,
      billedPerPageFetched: false,
      withinMaxCredits: true,
      balance: { available: 1000, reserved: 0, sufficient: true },
      quota: {
        limits: { jobsPerMonth: 100, targetsPerMonth: 10_000 },
        used: { jobsThisMonth: 0, targetsThisMonth: 0 },
        remaining: { jobsPerMonth: 100, targetsPerMonth: 10_000 },
        exceedsJobs: false,
        exceedsTargets: false,
      },
      queue: { position: 1, targetsAhead: 0 },
    });
    expect(h.billing.reservations.size).toBe(0);
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token })).body.meta.total).toBe(0);
    // The create of the same body reserves exactly the estimated credits.
    const created = await createJob({ type: 'search', targets: ['laptop', ' Laptop', 'mouse'], config: { pages: 3 } });
    expect(created.body.data.creditsReserved).toBe(30);
  });

  it('says a reviews estimate is a ceiling, and sees the jobs and credits already held', async () => {
    await createJob({ type: 'details', targets: ['B000000001', 'B000000002'] });
    const res = await estimate({ type: 'reviews', targets: ['B000000003'], config: { maxReviews: 50 } });
    expect(res.body.data).toMatchObject({ credits: 5, unitsPerTarget: 5, billedPerPageFetched: true });
    expect(res.body.data.balance).toEqual({ available: 996, reserved: 4, sufficient: true });
    expect(res.body.data.quota.used).toMatchObject({ jobsThisMonth: 1, targetsThisMonth: 2 });
    expect(res.body.data.queue.position).toBe(2);
    expect(res.body.data.queue.targetsAhead).toBe(2);
  });

  it('says when the balance or a monthly limit would refuse the create', async () => {
    h.billing.startingCredits = 10;
    h.billing.limits = { jobsPerMonth: 1, targetsPerMonth: 3, exportsPerMonth: 1 };
    const res = await estimate({ type: 'search', targets: ['a', 'b', 'c', 'd'] });
    expect(res.body.data.balance).toMatchObject({ available: 10, sufficient: false });
    expect(res.body.data.quota).toMatchObject({ exceedsJobs: false, exceedsTargets: true, remaining: { targetsPerMonth: 3 } });
  });

  it('answers the create’s 400s, and 404 for another organization’s project', async () => {
    const blank = await estimate({ type: 'details', targets: ['not an asin'] });
    const created = await createJob({ type: 'details', targets: ['not an asin'] });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual(created.body);
    const empty = await estimate({ type: 'search', targets: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    expect((await estimate({ type: 'search', targets: ['x'], maxCredits: 0 })).status).toBe(400);
    const mallory = h.user();
    expect((await estimate({ type: 'search', targets: ['x'] }, mallory.token)).status).toBe(404);
  });

  it('reports maxCredits against the figure, and the create refuses with 402 naming both', async () => {
    const body = { type: 'search', targets: ['a', 'b'], config: { pages: 2 }, maxCredits: 15 };
    const est = await estimate(body);
    expect(est.body.data).toMatchObject({ credits: 20, maxCredits: 15, withinMaxCredits: false });
    const refused = await createJob(body);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_CREDITS' } });
    expect(refused.body.error.message).toBe('This job would reserve 20 credits, more than maxCredits 15');
    expect(h.billing.reservations.size).toBe(0);
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token })).body.meta.total).toBe(0);
  });

  it('keeps maxCredits on a job created within it and shows it on the Job', async () => {
    const created = await createJob({ type: 'details', targets: ['B000000001'], maxCredits: 2 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ creditsReserved: 2, maxCredits: 2 });
    const read = await h.request({ method: 'GET', url: `/jobs/${created.body.data.id}`, token: alice.token });
    expect(read.body.data.maxCredits).toBe(2);
  });
});
