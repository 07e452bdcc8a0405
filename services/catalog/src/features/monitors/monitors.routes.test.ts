import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A valid details monitor; tests override what they look at. */
const detailsBody = (over: Record<string, unknown> = {}) => ({
  name: 'Headphones',
  type: 'details',
  targets: ['B000000001', 'https://www.amazon.de/dp/B000000002', 'B000000001'],
  domain: 'https://www.Amazon.de',
  every: '1h',
  watch: ['price', 'inStock'],
  rules: [
    { field: 'price', op: 'dropsBy', value: 10 },
    { field: 'inStock', op: 'becomesUnavailable' },
  ],
  ...over,
});

describe.each(testBackends())('monitors routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const create = (body: unknown, token = alice.token, project = projectId) => h.request({ method: 'POST', url: `/projects/${project}/monitors`, token, body });
  const newProject = async (user: HarnessUser, name = 'p') =>
    (await h.request({ method: 'POST', url: '/projects', token: user.token, body: { name } })).body.data.id as string;

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    // Every tick runs every due monitor of every test here: quotas must not be what a test sees.
    h.billing.limits.jobsPerMonth = 100_000;
    h.billing.limits.targetsPerMonth = 1_000_000;
    h.billing.startingCredits = 1_000_000;
    alice = h.user();
    projectId = await newProject(alice);
  });
  afterAll(async () => {
    await h.close();
  });

  it('creates a monitor with its targets and storefront normalized as a job’s, and reads it back', async () => {
    const res = await create(detailsBody({ deliveryZip: '10115' }));
    expect(res.status, res.text).toBe(201);
    const monitor = res.body.data;
    expect(monitor).toMatchObject({
      projectId,
      organizationId: alice.organizationId,
      name: 'Headphones',
      type: 'details',
      targets: ['B000000001', 'B000000002'],
      domain: 'amazon.de',
      deliveryZip: '10115',
      every: '1h',
      cron: null,
      timezone: null,
      watch: ['price', 'inStock'],
      rules: [
        { field: 'price', op: 'dropsBy', value: 10 },
        { field: 'inStock', op: 'becomesUnavailable' },
      ],
      cooldown: '1h',
      maxCreditsPerMonth: null,
      credits: { month: '2026-03', used: 0, perRun: 4 },
      status: 'active',
      pausedReason: null,
      pausedAt: null,
      resumesAt: null,
      // An interval monitor takes its baseline at the next tick.
      nextRunAt: '2026-03-02T08:00:00.000Z',
      lastRunAt: null,
      lastJobId: null,
      lastError: null,
      lastTriggeredAt: null,
    });
    expect(monitor.id).toMatch(/^mon_/);
    expect(monitor.createdAt).toMatch(ISO_UTC);
    const read = await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: alice.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(monitor);
  });

  it('creates a cron monitor in a time zone, first run at its next time; and one created paused', async () => {
    const cron = await create(detailsBody({ every: undefined, cron: '0 6 * * *', timezone: 'Europe/Berlin' }));
    expect(cron.status, cron.text).toBe(201);
    expect(cron.body.data).toMatchObject({ every: null, cron: '0 6 * * *', timezone: 'Europe/Berlin', nextRunAt: '2026-03-03T05:00:00.000Z' });
    const paused = await create(detailsBody({ enabled: false }));
    expect(paused.body.data).toMatchObject({ status: 'paused', pausedReason: 'user', nextRunAt: null });
    expect(paused.body.data.pausedAt).toMatch(ISO_UTC);
  });

  it.each([
    ['missing name', { name: undefined }],
    ['blank name', { name: '   ' }],
    ['name over 100 characters', { name: 'n'.repeat(101) }],
    ['every and cron', { cron: '0 6 * * *' }],
    ['neither every nor cron', { every: undefined }],
    ['every below 15m', { every: '5m' }],
    ['every above 7d', { every: '8d' }],
    ['every in weeks', { every: '1w' }],
    ['timezone with every', { timezone: 'Europe/Berlin' }],
    ['malformed cron', { every: undefined, cron: 'every day' }],
    ['cron more often than 15 minutes', { every: undefined, cron: '*/5 * * * *' }],
    ['empty targets', { targets: [] }],
    ['over 1000 targets', { targets: Array.from({ length: 1001 }, (_, n) => `B${String(n).padStart(9, '0')}`) }],
    ['a target that is no ASIN', { targets: ['not an asin'] }],
    ['a product URL on another host', { targets: ['https://evil.example/dp/B000000001'] }],
    ['an unsupported storefront', { domain: 'amazon.cn' }],
    ['a postal code of another country', { deliveryZip: 'SW1A 1AA' }],
    ['a field details monitors do not have', { watch: ['organicRank'], rules: [{ field: 'organicRank', op: 'changed' }] }],
    ['a rule on a field not watched', { rules: [{ field: 'rating', op: 'changed' }] }],
    ['entersTop on price', { rules: [{ field: 'price', op: 'entersTop', value: 10 }] }],
    ['dropsBy on a flag', { rules: [{ field: 'inStock', op: 'dropsBy', value: 10 }] }],
    ['sellerChanges on price', { rules: [{ field: 'price', op: 'sellerChanges' }] }],
    ['dropsBy without a value', { rules: [{ field: 'price', op: 'dropsBy' }] }],
    ['below without a value', { rules: [{ field: 'price', op: 'below' }] }],
    ['changed with a value', { rules: [{ field: 'price', op: 'changed', value: 3 }] }],
    ['a drop over 100 %', { rules: [{ field: 'price', op: 'dropsBy', value: 150 }] }],
    ['a drop of 0 %', { rules: [{ field: 'price', op: 'dropsBy', value: 0 }] }],
    [
      'the same rule twice',
      {
        rules: [
          { field: 'price', op: 'changed' },
          { field: 'price', op: 'changed' },
        ],
      },
    ],
    ['over 20 rules', { rules: Array.from({ length: 21 }, (_, n) => ({ field: 'price', op: 'below', value: n + 1 })) }],
    ['no rules', { rules: [] }],
    ['an unknown operation', { rules: [{ field: 'price', op: 'halves' }] }],
    ['a value as a string', { rules: [{ field: 'price', op: 'dropsBy', value: '10' }] }],
    ['a cooldown over 30d', { cooldown: '31d' }],
    ['a budget below one run', { maxCreditsPerMonth: 3 }],
    ['an unknown property', { status: 'active' }],
    ['an operator object', { name: { $ne: null } }],
    ['a watched field twice', { watch: ['price', 'price'] }],
  ])('rejects %s with 400 in the envelope', async (_label, over) => {
    const res = await create(detailsBody(over));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  });

  it.each([
    [{ rules: [{ field: 'price', op: 'entersTop', value: 10 }] }, 'rules[0].op "entersTop" does not apply to price; it applies to organicRank'],
    [{ rules: [{ field: 'rating', op: 'changed' }] }, 'rules[0].field "rating" is not watched; add it to watch'],
    [{ rules: [{ field: 'price', op: 'dropsBy' }] }, 'rules[0].value is required by op "dropsBy" (a percentage above 0)'],
    [{ rules: [{ field: 'price', op: 'changed', value: 3 }] }, 'rules[0].value: op "changed" takes no value'],
    [{ domain: 'amazon.cn' }, expect.stringMatching(/^domain "amazon.cn" is not a supported marketplace; use one of amazon.com, /)],
    [{ every: '5m' }, 'every "5m" is outside 15m to 7d (minutes m, hours h or days d, e.g. "15m", "6h", "1d")'],
    [{ maxCreditsPerMonth: 3 }, 'maxCreditsPerMonth 3 is less than one run: 4 credits (2 products)'],
    [{ every: undefined, cron: '*/5 * * * *' }, 'cron fires more often than every 15 minutes, the most a monitor runs'],
    [{ every: undefined, cron: '61 6 * * *' }, 'cron minute field "61" is not valid (allowed: 0-59, with *, lists, ranges and steps)'],
  ])('explains %j in words', async (over, message) => {
    const res = await create(detailsBody(over));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toEqual(message);
  });

  it('validates a search monitor’s rank rules: entersTop needs a whole rank from 1 to 500', async () => {
    const search = (rules: unknown[]) =>
      create({ name: 'Ranks', type: 'search', targets: ['usb c cable', 'USB  C Cable'], domain: 'amazon.com', every: '6h', watch: ['organicRank'], rules });
    const ok = await search([
      { field: 'organicRank', op: 'entersTop', value: 10 },
      { field: 'organicRank', op: 'leavesTop', value: 3 },
    ]);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data).toMatchObject({ type: 'search', targets: ['usb c cable'], credits: { perRun: 5 } });
    for (const value of [0, 2.5, 501]) expect((await search([{ field: 'organicRank', op: 'entersTop', value }])).status, String(value)).toBe(400);
    expect((await search([{ field: 'organicRank', op: 'entersTop' }])).status).toBe(400);
  });

  it('lists a project’s monitors newest first with limit, offset and meta', async () => {
    const project = await newProject(alice, 'paged');
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.unshift((await create(detailsBody({ name }), alice.token, project)).body.data.id);
      h.clock.advance(1000);
    }
    const first = await h.request({ method: 'GET', url: `/projects/${project}/monitors?limit=2`, token: alice.token });
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
    const rest = await h.request({ method: 'GET', url: `/projects/${project}/monitors?limit=2&offset=2&_=1`, token: alice.token });
    expect(rest.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2));
    expect((await h.request({ method: 'GET', url: `/projects/${project}/monitors?limit=0`, token: alice.token })).status).toBe(400);
  });

  it('bounds the monitors of a project (400 beyond), and refuses one in an archived project (409)', async () => {
    const project = await newProject(alice, 'full');
    for (let n = 0; n < 50; n += 1) expect((await create(detailsBody({ name: `m${n}`, enabled: false }), alice.token, project)).status).toBe(201);
    const over = await create(detailsBody({ name: 'one too many' }), alice.token, project);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe('A project has at most 50 monitors; delete one first');
    const archived = await newProject(alice, 'archived');
    await h.request({ method: 'PATCH', url: `/projects/${archived}`, token: alice.token, body: { archived: true } });
    expect((await create(detailsBody(), alice.token, archived)).status).toBe(409);
  });

  it('changes a monitor: the result is checked as a whole, the schedule switches, the rest stays', async () => {
    const monitor = (await create(detailsBody())).body.data;
    h.clock.advance(60_000);
    const patch = (body: unknown) => h.request({ method: 'PATCH', url: `/monitors/${monitor.id}`, token: alice.token, body });
    const renamed = await patch({
      name: '  Cheaper headphones ',
      watch: ['price', 'inStock', 'rating'],
      rules: [{ field: 'rating', op: 'below', value: 4 }],
      cooldown: '0m',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Cheaper headphones', rules: [{ field: 'rating', op: 'below', value: 4 }], cooldown: '0m', every: '1h' });
    expect(renamed.body.data.updatedAt > monitor.updatedAt).toBe(true);
    const toCron = await patch({ cron: '30 22 * * *' });
    expect(toCron.body.data).toMatchObject({ every: null, cron: '30 22 * * *', timezone: 'UTC', nextRunAt: '2026-03-02T22:30:00.000Z' });
    const toEvery = await patch({ every: '6h', deliveryZip: '10115', maxCreditsPerMonth: 400 });
    expect(toEvery.body.data).toMatchObject({ every: '6h', cron: null, timezone: null, deliveryZip: '10115', maxCreditsPerMonth: 400 });
    expect(Date.parse(toEvery.body.data.nextRunAt) - h.clock.now().getTime()).toBe(6 * 3_600_000);
    const cleared = await patch({ deliveryZip: null, maxCreditsPerMonth: null });
    expect(cleared.body.data).toMatchObject({ deliveryZip: null, maxCreditsPerMonth: null, targets: ['B000000001', 'B000000002'] });
  });

  it.each([
    ['an empty body', {}],
    ['a rule the watch list no longer covers', { watch: ['inStock'] }],
    ['every and cron at once', { every: '1h', cron: '0 6 * * *' }],
    ['a time zone on an interval monitor', { timezone: 'Europe/Berlin' }],
    ['the type', { type: 'search' }],
    ['an unknown property', { nextRunAt: '2020-01-01T00:00:00.000Z' }],
    ['a bad target', { targets: ['nope'] }],
  ])('PATCH rejects %s with 400 and leaves the monitor as it was', async (_label, body) => {
    const monitor = (await create(detailsBody())).body.data;
    const res = await h.request({ method: 'PATCH', url: `/monitors/${monitor.id}`, token: alice.token, body });
    expect(res.status, res.text).toBe(400);
    const read = await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: alice.token });
    expect(read.body.data).toEqual(monitor);
  });

  it('pauses and resumes: a paused monitor is not run by the tick; resumed, it runs at the next one', async () => {
    const bob = h.user();
    const project = await newProject(bob);
    const monitor = (await create(detailsBody(), bob.token, project)).body.data;
    const paused = await h.request({ method: 'POST', url: `/monitors/${monitor.id}/pause`, token: bob.token });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ status: 'paused', pausedReason: 'user', nextRunAt: null });
    await h.catalog.maintenance.tick();
    expect((await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: bob.token })).body.meta.total).toBe(0);
    const resumed = await h.request({ method: 'POST', url: `/monitors/${monitor.id}/resume`, token: bob.token });
    expect(resumed.body.data).toMatchObject({ status: 'active', pausedReason: null, pausedAt: null, nextRunAt: h.clock.now().toISOString() });
    await h.catalog.maintenance.tick();
    const jobs = await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: bob.token });
    expect(jobs.body.meta.total).toBe(1);
    expect(jobs.body.data[0]).toMatchObject({ monitorId: monitor.id, monitorRun: 'scheduled', type: 'details', config: { domain: 'amazon.de' } });
    expect(jobs.body.data[0].targets.map((t: { value: string }) => t.value)).toEqual(['B000000001', 'B000000002']);
    const after = (await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: bob.token })).body.data;
    expect(after).toMatchObject({
      lastRunAt: h.clock.now().toISOString(),
      lastJobId: jobs.body.data[0].id,
      nextRunAt: new Date(h.clock.now().getTime() + 3_600_000).toISOString(),
      credits: { used: 4 },
    });
    // The next tick in the same hour runs nothing more.
    await h.catalog.maintenance.tick();
    expect((await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: bob.token })).body.meta.total).toBe(1);
  });

  it('runs once now (also while paused) and answers with the job; billing’s refusals answer as a job create’s', async () => {
    const carol = h.user();
    const project = await newProject(carol);
    const monitor = (await create(detailsBody({ enabled: false }), carol.token, project)).body.data;
    const run = await h.request({ method: 'POST', url: `/monitors/${monitor.id}/run`, token: carol.token, headers: { 'x-request-id': 'req-run' } });
    expect(run.status, run.text).toBe(201);
    expect(run.body.data).toMatchObject({ status: 'queued', monitorId: monitor.id, monitorRun: 'manual', creditsReserved: 4 });
    expect((await h.request({ method: 'GET', url: `/jobs/${run.body.data.id}`, token: carol.token })).body.data.monitorId).toBe(monitor.id);
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: carol.token })).body.data).toMatchObject({
      status: 'paused',
      lastJobId: run.body.data.id,
      lastRunAt: run.body.data.createdAt,
      nextRunAt: null,
      credits: { used: 4 },
    });
    h.billing.account(carol.organizationId).available = 1;
    const broke = await h.request({ method: 'POST', url: `/monitors/${monitor.id}/run`, token: carol.token });
    expect(broke.status).toBe(402);
    expect(broke.body.error.code).toBe('INSUFFICIENT_CREDITS');
    // A refused run gives its credits back to the monitor's budget.
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: carol.token })).body.data.credits.used).toBe(4);
    const audit = (await h.request({ method: 'GET', url: '/audit?limit=100', token: carol.token })).body.data as Array<{
      action: string;
      requestId: string | null;
      metadata: any;
    }>;
    expect(audit.find((e) => e.action === 'monitor.run')).toMatchObject({ requestId: 'req-run', metadata: { jobId: run.body.data.id } });
    expect(audit.find((e) => e.action === 'job.create')?.metadata).toMatchObject({ monitorId: monitor.id, monitorRun: 'manual', trigger: 'monitor' });
  });

  it('keeps a scheduled run’s refusal on the monitor (lastError) and keeps going', async () => {
    const dave = h.user();
    const project = await newProject(dave);
    const monitor = (await create(detailsBody(), dave.token, project)).body.data;
    h.billing.account(dave.organizationId).available = 0;
    await h.catalog.maintenance.tick();
    const failed = (await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: dave.token })).body.data;
    expect(failed).toMatchObject({ status: 'active', lastError: { code: 'INSUFFICIENT_CREDITS', at: h.clock.now().toISOString() }, credits: { used: 0 } });
    expect(failed.nextRunAt > h.clock.now().toISOString()).toBe(true);
    h.billing.account(dave.organizationId).available = 1000;
    h.clock.advance(3_600_000);
    await h.catalog.maintenance.tick();
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: dave.token })).body.data).toMatchObject({
      lastError: null,
      credits: { used: 4 },
    });
  });

  it('pauses itself when a run would pass its monthly budget, says so, refuses runs, and resumes the next month', async () => {
    const erin = h.user();
    const project = await newProject(erin);
    const monitor = (await create(detailsBody({ maxCreditsPerMonth: 9 }), erin.token, project)).body.data;
    await h.catalog.maintenance.tick();
    h.clock.advance(3_600_000);
    await h.catalog.maintenance.tick();
    h.clock.advance(3_600_000);
    await h.catalog.maintenance.tick();
    const paused = (await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: erin.token })).body.data;
    expect(paused).toMatchObject({
      status: 'paused',
      pausedReason: 'budget_exhausted',
      resumesAt: '2026-04-01T00:00:00.000Z',
      nextRunAt: null,
      credits: { month: '2026-03', used: 8, perRun: 4 },
    });
    expect((await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: erin.token })).body.meta.total).toBe(2);
    const outbox = await h.catalog.events.pendingAll(1000);
    const pausedEvent = outbox.find((entry) => entry.type === 'monitor.paused' && entry.payload.monitor.id === monitor.id);
    expect(pausedEvent?.payload).toMatchObject({ reason: 'budget_exhausted', monitor: { id: monitor.id, pausedReason: 'budget_exhausted' } });
    const run = await h.request({ method: 'POST', url: `/monitors/${monitor.id}/run`, token: erin.token });
    expect(run.status).toBe(409);
    expect(run.body.error.details).toEqual([{ reason: 'MONITOR_BUDGET_EXHAUSTED', credits: 4, maxCreditsPerMonth: 9 }]);
    const audit = (await h.request({ method: 'GET', url: '/audit?action=monitor.pause', token: erin.token })).body.data;
    expect(audit[0]).toMatchObject({ resourceId: monitor.id, metadata: { reason: 'budget_exhausted' } });

    h.clock.set('2026-04-01T00:00:30.000Z');
    await h.catalog.maintenance.tick();
    const resumed = (await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: erin.token })).body.data;
    expect(resumed).toMatchObject({ status: 'active', pausedReason: null, resumesAt: null, credits: { month: '2026-04', used: 4 } });
    expect((await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: erin.token })).body.meta.total).toBe(3);
  });

  it('deletes a monitor (204): it and its events are gone, its jobs stay', async () => {
    const monitor = (await create(detailsBody())).body.data;
    const run = (await h.request({ method: 'POST', url: `/monitors/${monitor.id}/run`, token: alice.token })).body.data;
    const removed = await h.request({ method: 'DELETE', url: `/monitors/${monitor.id}`, token: alice.token });
    expect(removed.status).toBe(204);
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: alice.token })).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}/events`, token: alice.token })).status).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/monitors/${monitor.id}`, token: alice.token })).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/jobs/${run.id}`, token: alice.token })).body.data.monitorId).toBe(monitor.id);
  });

  it('hides another organization’s monitors: every id route answers 404 exactly as an unknown id, lists and creates in its projects too', async () => {
    const monitor = (await create(detailsBody())).body.data;
    const mallory = h.user();
    const routes: Array<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown }> = [
      { method: 'GET', path: '' },
      { method: 'PATCH', path: '', body: { name: 'mine' } },
      { method: 'POST', path: '/pause' },
      { method: 'POST', path: '/resume' },
      { method: 'POST', path: '/run' },
      { method: 'GET', path: '/events' },
      { method: 'DELETE', path: '' },
    ];
    for (const route of routes) {
      const theirs = await h.request({ method: route.method, url: `/monitors/${monitor.id}${route.path}`, token: mallory.token, body: route.body });
      const unknown = await h.request({ method: route.method, url: `/monitors/mon_unknown${route.path}`, token: mallory.token, body: route.body });
      expect(theirs.status, `${route.method} ${route.path}`).toBe(404);
      expect(theirs.body).toEqual(unknown.body);
    }
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/monitors`, token: mallory.token })).status).toBe(404);
    expect((await create(detailsBody(), mallory.token)).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/monitors/${monitor.id}`, token: alice.token })).body.data).toMatchObject({
      name: 'Headphones',
      status: 'active',
    });
  });

  it('audits create, update, pause, resume and delete with the request id', async () => {
    const frank = h.user();
    const project = await newProject(frank);
    const headers = { 'x-request-id': 'req-mon' };
    const monitor = (await h.request({ method: 'POST', url: `/projects/${project}/monitors`, token: frank.token, body: detailsBody(), headers })).body.data;
    // A second between the actions: events of the same instant have no order of their own.
    const later = () => h.clock.advance(1000);
    later();
    await h.request({ method: 'PATCH', url: `/monitors/${monitor.id}`, token: frank.token, body: { name: 'x' }, headers });
    later();
    await h.request({ method: 'POST', url: `/monitors/${monitor.id}/pause`, token: frank.token, headers });
    later();
    await h.request({ method: 'POST', url: `/monitors/${monitor.id}/resume`, token: frank.token, headers });
    later();
    await h.request({ method: 'DELETE', url: `/monitors/${monitor.id}`, token: frank.token, headers });
    const audit = (await h.request({ method: 'GET', url: '/audit?limit=100', token: frank.token })).body.data as Array<{
      action: string;
      requestId: string;
      resourceId: string;
    }>;
    const actions = audit.filter((e) => e.resourceId === monitor.id).map((e) => [e.action, e.requestId]);
    expect(actions.reverse()).toEqual([
      ['monitor.create', 'req-mon'],
      ['monitor.update', 'req-mon'],
      ['monitor.pause', 'req-mon'],
      ['monitor.resume', 'req-mon'],
      ['monitor.delete', 'req-mon'],
    ]);
  });
});
