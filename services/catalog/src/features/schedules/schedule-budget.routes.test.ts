import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';

describe.each(testBackends())('schedule budgets ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;

  const create = (body: unknown) => h.request({ method: 'POST', url: `/projects/${projectId}/schedules`, token: alice.token, body });
  const listed = async () => (await h.request({ method: 'GET', url: `/projects/${projectId}/schedules`, token: alice.token })).body.data[0];
  const jobCount = async () => (await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token })).body.meta.total;

  beforeEach(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
    h.clock.set('2026-03-01T00:00:00.000Z');
  });
  afterEach(async () => {
    await h.close();
  });

  it('runs within maxCreditsPerMonth, then pauses with its reason until the next month', async () => {
    // Each run reserves 10 credits (two keywords × 5); the budget holds two runs.
    const created = await create({ cron: '0 7 * * *', crawlConfig: { type: 'search', targets: ['a', 'b'] }, maxCreditsPerMonth: 25 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ maxCreditsPerMonth: 25, pausedReason: null, budget: { month: '2026-03', credits: 0 } });

    for (const day of ['02', '03']) {
      h.clock.set(`2026-03-${day}T07:00:00.000Z`);
      await h.catalog.maintenance.tick();
    }
    expect(await jobCount()).toBe(2);
    expect(await listed()).toMatchObject({ budget: { credits: 20 }, pausedReason: null });

    h.clock.set('2026-03-04T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    expect(await jobCount()).toBe(2);
    const paused = await listed();
    expect(paused).toMatchObject({
      pausedReason: 'budget_exhausted',
      pausedUntil: '2026-04-01T00:00:00.000Z',
      lastError: { code: 'SCHEDULE_BUDGET_EXHAUSTED' },
    });
    expect(paused.lastError.message).toContain('A run needs 10 credits; 20 of the schedule');
    expect(h.billing.reservations.size).toBe(2);
    // The outbox says so as a schedule.failed event (webhooks send it).
    const outbox = await h.catalog.events.pendingAll();
    expect(outbox.filter((doc) => doc.type === 'schedule.failed' && JSON.stringify(doc).includes('SCHEDULE_BUDGET_EXHAUSTED'))).toHaveLength(1);

    // Paused: later runs this month are skipped.
    h.clock.set('2026-03-05T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    expect(await jobCount()).toBe(2);

    // A new month: the pause is over and the budget counts from 0.
    h.clock.set('2026-04-01T07:00:00.000Z');
    expect(await listed()).toMatchObject({ pausedReason: null, budget: { month: '2026-04', credits: 0 } });
    await h.catalog.maintenance.tick();
    expect(await jobCount()).toBe(3);
    expect(await listed()).toMatchObject({ budget: { month: '2026-04', credits: 10 } });
  });

  it('a raised budget ends the pause; a crawlConfig maxCredits refuses a run that would pass it', async () => {
    const schedule = (await create({ cron: '0 7 * * *', crawlConfig: { type: 'search', targets: ['a', 'b'] }, maxCreditsPerMonth: 5 })).body.data;
    h.clock.set('2026-03-02T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    expect((await listed()).pausedReason).toBe('budget_exhausted');

    const raised = await h.request({ method: 'PATCH', url: `/schedules/${schedule.id}`, token: alice.token, body: { maxCreditsPerMonth: null } });
    expect(raised.body.data).toMatchObject({ maxCreditsPerMonth: null, pausedReason: null });
    h.clock.set('2026-03-03T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    expect(await jobCount()).toBe(1);

    await h.request({
      method: 'PATCH',
      url: `/schedules/${schedule.id}`,
      token: alice.token,
      body: { crawlConfig: { type: 'search', targets: ['a', 'b'], maxCredits: 9 } },
    });
    expect((await listed()).crawlConfig.maxCredits).toBe(9);
    h.clock.set('2026-03-04T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    expect(await jobCount()).toBe(1);
    expect((await listed()).lastError).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      message: 'This job would reserve 10 credits, more than crawlConfig.maxCredits 9',
    });
  });
});
