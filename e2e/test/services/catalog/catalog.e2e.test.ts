import { CatalogPaths } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf } from '@crawl/catalog';
import { testBackends } from '@crawl/catalog/testing/backends';
import { searchRecord } from '@crawl/catalog/testing/result-records';

/**
 * The whole service in one process (gateway JWT, auth, real billing, catalog): the catalog rules
 * that depend on billing, proven against billing itself rather than a fake.
 */
describe.each(testBackends())('catalog through the gateway with real auth and billing ($name)', (backend) => {
  let svc: TestService;
  const clock = new ManualClock('2026-03-02T08:00:00.000Z');
  const usage = async (token: string) => (await svc.request({ method: 'GET', url: '/usage', token })).body.data;

  beforeAll(async () => {
    svc = await startTestService({
      clock,
      env: {
        LIMIT_JOBS_PER_MONTH: '4',
        LIMIT_EXPORTS_PER_MONTH: '1',
        LIMIT_TARGETS_PER_MONTH: '10000',
        SCHEDULER_TICK_MS: '3600000',
        ...backend.env(),
      },
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  const internal = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    svc.process.app.inject({
      method,
      url,
      headers: { ...svc.internalHeaders('crawler-worker'), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });

  it('runs a job from create to settlement, export and cancel with real credits', async () => {
    const alice = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'e2e' } });
    expect(project.status).toBe(201);
    const projectId = project.body.data.id;

    const created = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: alice.token,
      body: { type: 'search', targets: ['a', 'b'] },
    });
    expect(created.status).toBe(201);
    const job = created.body.data;
    expect(job).toMatchObject({ status: 'queued', creditsReserved: 10, organizationId: alice.organizationId, bullJobId: `${job.id}-0` });

    // The crawler's side, driven by hand: one success, one failure.
    expect(JSON.parse((await internal('POST', CatalogPaths.claimTarget(job.id, 0), {})).body).data.proceed).toBe(true);
    await internal('POST', CatalogPaths.reportTarget(job.id, 0), {
      status: 'success',
      items: [searchRecord({ title: '=cmd', keyword: 'a', price: { amount: 9.99, currency: 'USD', raw: '$9.99' }, rank: 1 })],
    });
    await internal('POST', CatalogPaths.reportTarget(job.id, 1), { status: 'failed', reason: 'blocked', items: [] });
    const done = await svc.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token });
    expect(done.body.data).toMatchObject({ status: 'completed', resultCount: 1 });

    const state = JSON.parse((await internal('GET', CatalogPaths.jobState(job.id))).body).data;
    expect(state).toMatchObject({ exists: true, status: 'completed', settled: true });

    const csv = await svc.request({ method: 'GET', url: `/jobs/${job.id}/export?format=csv`, token: alice.token });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="job-${job.id}.csv"`);
    expect(csv.text).toContain("B000000001,'=cmd,9.99,USD,$9.99,1,");
    const second = await svc.request({ method: 'GET', url: `/jobs/${job.id}/export`, token: alice.token });
    expect(second.status).toBe(403);
    expect(second.body.error.code).toBe('FORBIDDEN');

    const toCancel = (
      await svc.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'details', targets: ['B000000002'] } })
    ).body.data;
    const cancelled = await svc.request({ method: 'POST', url: `/jobs/${toCancel.id}/cancel`, token: alice.token });
    expect(cancelled.body.data.status).toBe('cancelled');

    const figures = await usage(alice.token);
    expect(figures.used.exportsThisMonth).toBe(1);
    expect(figures.used.jobsThisMonth).toBe(2);

    const audit = await svc.request({ method: 'GET', url: '/audit', token: alice.token });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['project.create', 'job.create', 'job.export', 'job.cancel']),
    );

    const mallory = await svc.registerUser();
    expect((await svc.request({ method: 'GET', url: `/jobs/${job.id}`, token: mallory.token })).status).toBe(404);
    expect((await svc.request({ method: 'GET', url: '/projects', token: mallory.token })).body.data).toEqual([]);
  });

  it('answers 403 when the monthly job limit is reached and 402 when credits run out', async () => {
    const bob = await svc.registerUser();
    const projectId = (await svc.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'limits' } })).body.data.id;
    // 1,000 signup credits: 197 keywords cost 985, 15 remain.
    const big = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: bob.token,
      body: { type: 'search', targets: Array.from({ length: 197 }, (_, i) => `kw${i}`) },
    });
    expect(big.status).toBe(201);
    const short = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: bob.token,
      body: { type: 'search', targets: ['one', 'two', 'three', 'four'] },
    });
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe('INSUFFICIENT_CREDITS');
    // The big job is still queued: a retry would crawl it twice, so it is refused before credits are looked at.
    const retry = await svc.request({ method: 'POST', url: `/jobs/${big.body.data.id}/retry`, token: bob.token });
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('CONFLICT');
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await svc.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: bob.token, body: { type: 'details', targets: ['B000000001'] } }))
          .status,
      ).toBe(201);
    }
    const overQuota = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: bob.token,
      body: { type: 'details', targets: ['B000000001'] },
    });
    expect(overQuota.status).toBe(403);
    expect(overQuota.body.error.code).toBe('FORBIDDEN');
    const list = await svc.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: bob.token });
    expect(list.body.meta.total).toBe(4);
  });

  it('fires a schedule through billing and records the refusal when credits are short', async () => {
    const carol = await svc.registerUser();
    const projectId = (await svc.request({ method: 'POST', url: '/projects', token: carol.token, body: { name: 'sched' } })).body.data.id;
    const schedule = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/schedules`,
      token: carol.token,
      body: { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: Array.from({ length: 150 }, (_, i) => `k${i}`) } },
    });
    expect(schedule.status).toBe(201);
    const catalog = catalogOf(svc.context('catalog'));
    clock.set('2026-03-03T06:00:00.000Z');
    await catalog.schedules.runDue();
    clock.set('2026-03-04T06:00:00.000Z');
    await catalog.schedules.runDue();
    const [current] = (await svc.request({ method: 'GET', url: `/projects/${projectId}/schedules`, token: carol.token })).body.data;
    expect(current.lastError).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(current.nextRunAt).toBe('2026-03-05T06:00:00.000Z');
    const jobs = await svc.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: carol.token });
    expect(jobs.body.meta.total).toBe(1);
    expect(jobs.body.data[0].id).toBe(current.lastJobId ?? jobs.body.data[0].id);
  });
});
