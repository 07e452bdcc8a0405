import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(testBackends())('schedules routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const create = (body: unknown, token = alice.token, project = projectId) => h.request({ method: 'POST', url: `/projects/${project}/schedules`, token, body });

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('creates a schedule and returns it with id, project id, nextRunAt, lastRunAt, last job and error, timestamps', async () => {
    const res = await create({ cron: '0 6 * * *', crawlConfig: { type: 'details', targets: ['B000000001'], config: { lang: 'de' } } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      projectId,
      organizationId: alice.organizationId,
      cron: '0 6 * * *',
      timezone: 'UTC',
      enabled: true,
      crawlConfig: { type: 'details', targets: ['B000000001'], config: { lang: 'de' } },
      nextRunAt: '2026-03-03T06:00:00.000Z',
      lastRunAt: null,
      lastJobId: null,
      lastError: null,
    });
    expect(res.body.data.id).toEqual(expect.any(String));
    expect(res.body.data.createdAt).toMatch(ISO_UTC);
    expect(res.body.data.updatedAt).toMatch(ISO_UTC);
    const list = await h.request({ method: 'GET', url: `/projects/${projectId}/schedules`, token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(res.body.data.id);
  });

  it.each([
    ['missing cron', { crawlConfig: { type: 'search', targets: ['x'] } }],
    ['missing crawlConfig', { cron: '0 6 * * *' }],
    ['cron as number', { cron: 6, crawlConfig: { type: 'search', targets: ['x'] } }],
    ['cron operator', { cron: { $ne: null }, crawlConfig: { type: 'search', targets: ['x'] } }],
    ['oversized cron', { cron: '0 '.repeat(100), crawlConfig: { type: 'search', targets: ['x'] } }],
    ['malformed cron', { cron: 'every day', crawlConfig: { type: 'search', targets: ['x'] } }],
    ['too frequent cron', { cron: '*/5 * * * *', crawlConfig: { type: 'search', targets: ['x'] } }],
    ['unknown time zone', { cron: '0 6 * * *', timezone: 'Nowhere/City', crawlConfig: { type: 'search', targets: ['x'] } }],
    ['empty targets', { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: [] } }],
    ['bad job type', { cron: '0 6 * * *', crawlConfig: { type: 'reviews', targets: ['x'] } }],
    ['bad details target', { cron: '0 6 * * *', crawlConfig: { type: 'details', targets: ['https://evil.example/dp/B000000001'] } }],
    ['oversized config', { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'], config: { blob: 'z'.repeat(5000) } } }],
    ['extra crawlConfig key', { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'], priority: 1 } }],
    ['extra top-level key', { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] }, lastRunAt: null }],
  ])('rejects %s with 400', async (_label, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it.each([
    ['every day', 'cron must have 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; got 2'],
    ['0 6 * * * * *', 'cron must have 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; got 7'],
    ['61 6 * * *', 'cron minute field "61" is not valid (allowed: 0-59, with *, lists, ranges and steps)'],
    ['0 6 0 * *', 'cron day-of-month field "0" is not valid (allowed: 1-31, with *, lists, ranges and steps)'],
    ['0 6 * * funday', 'cron day-of-week field "funday" is not valid (allowed: 0-7 or SUN-SAT, with *, lists, ranges and steps)'],
    ['*/5 * * * *', 'cron fires more often than the minimum interval of 60 minutes (the service runs daily-style schedules)'],
  ])('explains the cron %j in words, in the message and the details', async (cron, message) => {
    const res = await create({ cron, crawlConfig: { type: 'search', targets: ['x'] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'VALIDATION_ERROR', message, details: [message] });
  });

  it('lists schedules with paging and meta.total, newest first', async () => {
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'paged' } })).body.data.id;
    const ids: string[] = [];
    for (const hour of [1, 2, 3]) {
      ids.unshift((await create({ cron: `0 ${hour} * * *`, crawlConfig: { type: 'search', targets: ['x'] } }, alice.token, project)).body.data.id);
      h.clock.advance(1000);
    }
    const first = await h.request({ method: 'GET', url: `/projects/${project}/schedules?limit=2`, token: alice.token });
    expect(first.body.meta).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    const rest = await h.request({ method: 'GET', url: `/projects/${project}/schedules?limit=2&offset=2&_=cachebuster`, token: alice.token });
    expect(rest.body.meta).toEqual({ total: 3, limit: 2, offset: 2 });
    expect(rest.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(2));
    const bad = await h.request({ method: 'GET', url: `/projects/${project}/schedules?limit=0`, token: alice.token });
    expect(bad.status).toBe(400);
  });

  it('shows no nextRunAt while a schedule is disabled, and a fresh one once it is enabled again', async () => {
    const off = await create({ cron: '0 6 * * *', enabled: false, crawlConfig: { type: 'search', targets: ['x'] } });
    expect(off.body.data).toMatchObject({ enabled: false, nextRunAt: null });
    const on = (await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } })).body.data;
    const disabled = await h.request({ method: 'PATCH', url: `/schedules/${on.id}`, token: alice.token, body: { enabled: false } });
    expect(disabled.body.data).toMatchObject({ enabled: false, nextRunAt: null });
    const listed = (await h.request({ method: 'GET', url: `/projects/${projectId}/schedules?limit=100`, token: alice.token })).body.data;
    expect(listed.find((s: { id: string }) => s.id === on.id)).toMatchObject({ enabled: false, nextRunAt: null });
    expect(listed.find((s: { id: string }) => s.id === off.body.data.id)).toMatchObject({ enabled: false, nextRunAt: null });
    const enabled = await h.request({ method: 'PATCH', url: `/schedules/${on.id}`, token: alice.token, body: { enabled: true } });
    expect(enabled.body.data.nextRunAt).toMatch(ISO_UTC);
    expect(enabled.body.data.nextRunAt > h.clock.now().toISOString()).toBe(true);
  });

  it('names the crawlConfig field in an empty-targets message', async () => {
    const res = await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: [] } });
    expect(res.body.error.message).toMatch(/crawlConfig\.targets must contain at least one element/);
  });

  it('updates enabled, cron and crawlConfig, recomputing nextRunAt', async () => {
    const schedule = (await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } })).body.data;
    h.clock.advance(60_000);
    const disabled = await h.request({ method: 'PATCH', url: `/schedules/${schedule.id}`, token: alice.token, body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.enabled).toBe(false);
    expect(disabled.body.data.updatedAt > schedule.updatedAt).toBe(true);
    const changed = await h.request({
      method: 'PATCH',
      url: `/schedules/${schedule.id}`,
      token: alice.token,
      body: { enabled: true, cron: '30 22 * * *', crawlConfig: { type: 'search', targets: ['y', 'z'], config: { pages: 2 } } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      enabled: true,
      cron: '30 22 * * *',
      nextRunAt: '2026-03-02T22:30:00.000Z',
      crawlConfig: { type: 'search', targets: ['y', 'z'], config: { pages: 2 } },
    });
  });

  it.each([
    ['empty body', {}],
    ['enabled as string', { enabled: 'yes' }],
    ['too frequent cron', { cron: '* * * * *' }],
    ['invalid crawlConfig', { crawlConfig: { type: 'search', targets: [] } }],
    ['unknown key', { nextRunAt: '2020-01-01T00:00:00.000Z' }],
  ])('PATCH rejects %s with 400 and leaves the schedule unchanged', async (_label, body) => {
    const schedule = (await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } })).body.data;
    const res = await h.request({ method: 'PATCH', url: `/schedules/${schedule.id}`, token: alice.token, body });
    expect(res.status).toBe(400);
    const list = await h.request({ method: 'GET', url: `/projects/${projectId}/schedules`, token: alice.token });
    const current = list.body.data.find((s: { id: string }) => s.id === schedule.id);
    expect(current).toMatchObject({ cron: '0 6 * * *', enabled: true, crawlConfig: { targets: ['x'] } });
  });

  it("hides another organization's schedules and projects", async () => {
    const schedule = (await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } })).body.data;
    const mallory = h.user();
    const patch = await h.request({ method: 'PATCH', url: `/schedules/${schedule.id}`, token: mallory.token, body: { enabled: false } });
    const unknown = await h.request({ method: 'PATCH', url: '/schedules/sch_unknown', token: mallory.token, body: { enabled: false } });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual(unknown.body);
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/schedules`, token: mallory.token })).status).toBe(404);
    expect((await create({ cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } }, mallory.token)).status).toBe(404);
  });

  it('fires through the scheduler tick with the manual clock and audits schedule create/update', async () => {
    const bob = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'b' } })).body.data.id;
    const schedule = (await create({ cron: '0 7 * * *', crawlConfig: { type: 'search', targets: ['kw'] } }, bob.token, project)).body.data;
    await h.request({ method: 'PATCH', url: `/schedules/${schedule.id}`, token: bob.token, body: { enabled: true }, headers: { 'x-request-id': 'req-sch' } });
    h.clock.set('2026-03-03T07:00:00.000Z');
    await h.catalog.maintenance.tick();
    const jobs = await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: bob.token });
    expect(jobs.body.meta.total).toBe(1);
    const list = await h.request({ method: 'GET', url: `/projects/${project}/schedules`, token: bob.token });
    expect(list.body.data[0]).toMatchObject({ lastRunAt: '2026-03-03T07:00:00.000Z', lastJobId: jobs.body.data[0].id, nextRunAt: '2026-03-04T07:00:00.000Z' });
    const audit = await h.request({ method: 'GET', url: '/audit', token: bob.token });
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['schedule.create', 'schedule.update', 'job.create']));
    expect(audit.body.data.find((e: { action: string }) => e.action === 'schedule.update').requestId).toBe('req-sch');
  });
});
