import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope, runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const monitor = (extra: Record<string, unknown> = {}) => ({
  id: 'mon_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  name: 'Headphones',
  type: 'details',
  targets: ['B0SIM00001', 'B0SIM00002'],
  domain: 'amazon.de',
  deliveryZip: '10115',
  every: '6h',
  cron: null,
  timezone: null,
  watch: ['price', 'inStock', 'rating'],
  rules: [
    { field: 'price', op: 'dropsBy', value: 10, confirm: true },
    { field: 'inStock', op: 'becomesUnavailable' },
  ],
  cooldown: '12h',
  maxCreditsPerMonth: 500,
  credits: { month: '2026-03', used: 8, perRun: 4 },
  status: 'active',
  pausedReason: null,
  pausedAt: null,
  resumesAt: null,
  nextRunAt: '2026-03-01T06:00:00.000Z',
  lastRunAt: null,
  lastJobId: null,
  lastError: null,
  lastTriggeredAt: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...extra,
});

const event = (n: number, jobId: string, createdAt: string) => ({
  id: `mev_${n}`,
  type: 'monitor.triggered',
  monitorId: 'mon_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  target: 'B0SIM00001',
  subject: { kind: 'product', marketplace: 'amazon.de', asin: 'B0SIM00001', zip: '10115' },
  field: 'price',
  rule: { field: 'price', op: 'dropsBy', value: 10 },
  previous: 49.99,
  current: 42.99,
  changePercent: -14,
  previousObservedAt: '2026-03-01T00:00:00.000Z',
  observedAt: createdAt,
  jobId,
  resultId: `${jobId}:0:0`,
  confirmedBy: null,
  createdAt,
});

const job = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'job_9',
  projectId: 'prj_1',
  organizationId: 'org_1',
  type: 'details',
  status,
  targets: [{ value: 'B0SIM00001', status: status === 'completed' ? 'success' : 'pending' }],
  config: { domain: 'amazon.de' },
  creditsReserved: 2,
  resultCount: status === 'completed' ? 1 : 0,
  monitorId: 'mon_1',
  monitorRun: 'manual',
  createdAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T08:00:00.000Z',
  ...extra,
});

describe('crawl monitors', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('create: builds the monitor from the flags (rules parsed, their fields watched, the budget and schedule) and prints its rules in words', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: monitor() }));
    const file = join(tmpdir(), `monitor-targets-${process.pid}.txt`);
    writeFileSync(file, '# products\nB0SIM00002\n');
    const run = await runCli(
      [
        ...['monitors', 'create', '--project', 'prj_1', '--name', 'Headphones', '--type', 'details'],
        ...['--target', 'B0SIM00001', '--targets-file', file, '--domain', 'amazon.de', '--zip', '10115', '--every', '6h'],
        ...['--watch', 'rating,inStock', '--rule', 'price dropsBy 10 confirm', '--rule', 'inStock becomesUnavailable'],
        ...['--cooldown', '12h', '--max-credits-per-month', '500'],
      ],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/projects/prj_1/monitors' });
    expect(api.requests[0]?.body).toEqual({
      name: 'Headphones',
      type: 'details',
      targets: ['B0SIM00001', 'B0SIM00002'],
      domain: 'amazon.de',
      deliveryZip: '10115',
      every: '6h',
      watch: ['rating', 'inStock', 'price'],
      rules: [
        { field: 'price', op: 'dropsBy', value: 10, confirm: true },
        { field: 'inStock', op: 'becomesUnavailable' },
      ],
      cooldown: '12h',
      maxCreditsPerMonth: 500,
    });
    expect(run.stdout).toMatch(
      /^Created monitor mon_1 "Headphones": 2 details target\(s\) on amazon\.de, every 6h, 4 credits per run; next run 2026-03-0\d \d\d:\d\d$/m,
    );
    expect(run.stdout).toContain('  1. when price drops by 10 %, confirmed by a second check\n  2. when it becomes unavailable');
  });

  it('create: a search monitor on a cron rule, created paused, on amazon.com unless told', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: monitor({ type: 'search', status: 'paused', pausedReason: 'user' }) }));
    const run = await runCli(
      [
        'monitors',
        'create',
        '--project',
        'prj_1',
        '--name',
        'Cables',
        '--type',
        'search',
        '--target',
        'usb c cable',
        '--cron',
        '0 6 * * *',
        '--timezone',
        'Europe/Berlin',
        '--rule',
        'entersTop 3',
        '--paused',
        '--json',
      ],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]?.body).toEqual({
      name: 'Cables',
      type: 'search',
      targets: ['usb c cable'],
      domain: 'amazon.com',
      cron: '0 6 * * *',
      timezone: 'Europe/Berlin',
      watch: ['organicRank'],
      rules: [{ field: 'organicRank', op: 'entersTop', value: 3 }],
      enabled: false,
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'mon_1', status: 'paused' });
  });

  it('create: mistakes in the flags are usage errors (exit 2) that say what to write, and nothing is sent', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: monitor() }));
    const base = ['monitors', 'create', '--project', 'prj_1', '--name', 'M', '--type', 'details', '--target', 'B0SIM00001'];
    const cases: Array<[string[], RegExp]> = [
      [
        [...base, '--every', '6h', '--rule', 'price dropsby'],
        /^crawl: --rule "price dropsby": dropsBy needs a percentage above 0; write FIELD OP \[VALUE\] \[confirm\], e\.g\. "price dropsBy 10"/,
      ],
      [[...base, '--every', '6h', '--rule', 'price tanks 10'], /"tanks" is not an operation/],
      [[...base, '--every', '6h'], /no rules: give --rule "FIELD OP \[VALUE\]"/],
      [[...base, '--rule', 'price dropsBy 10'], /how often\? give --every .* or --cron/],
      [[...base, '--every', '6h', '--cron', '0 6 * * *', '--rule', 'price dropsBy 10'], /give --every or --cron, not both/],
      [[...base, '--every', 'daily', '--rule', 'price dropsBy 10'], /--every is minutes, hours or days \(15m, 6h, 1d\), got "daily"/],
      [[...base, '--every', '6h', '--rule', 'entersTop 3'], /--rule: details monitors watch price, .*; "organicRank" is not one of them/],
      [[...base, '--every', '6h', '--rule', 'price dropsBy 10', '--watch', 'page'], /--watch: details monitors watch .*"page" is not one of them/],
      [[...base, '--every', '6h', '--rule', 'price dropsBy 10', '--max-credits-per-month', 'lots'], /--max-credits-per-month must be a whole number/],
      [[...base.slice(0, -2), '--every', '6h', '--rule', 'price dropsBy 10'], /no targets/],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv, { baseUrl: api.url });
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).toMatch(message);
    }
    expect(api.requests).toEqual([]);
  });

  it("create: the API's refusal is exit 1 with each problem it named", async () => {
    const problems = ['rules[0].value 150 is not a percentage above 0 and at most 100', 'maxCreditsPerMonth 1 is less than one run: 2 credits (1 products)'];
    api = await startStubApi((_request, res) => sendJson(res, 400, errorEnvelope('VALIDATION_ERROR', problems[0] as string, problems)));
    const run = await runCli(
      ['monitors', 'create', '--project', 'prj_1', '--name', 'M', '--type', 'details', '--target', 'B0SIM00001', '--every', '6h', '--rule', 'price dropsBy 10'],
      { baseUrl: api.url },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`crawl: ${problems[0]} (VALIDATION_ERROR, HTTP 400)\n  - ${problems[1]}\n  request id: req-test`);
  });

  it('list, get, pause, resume and delete', async () => {
    api = await startStubApi((request, res) => {
      const route = `${request.method} ${request.path}`;
      if (route === 'GET /projects/prj_1/monitors') {
        return sendJson(res, 200, {
          data: [monitor(), monitor({ id: 'mon_2', name: 'Cables', every: null, cron: '0 6 * * *', timezone: 'UTC', maxCreditsPerMonth: null })],
          meta: { total: 2, limit: 100, offset: 0 },
        });
      }
      if (route === 'POST /monitors/mon_1/pause') return sendJson(res, 200, { data: monitor({ status: 'paused', pausedReason: 'user', nextRunAt: null }) });
      if (route === 'DELETE /monitors/mon_1') return sendJson(res, 204, null);
      const lastError = { code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits', at: '2026-03-01T06:00:00.000Z' };
      sendJson(res, 200, { data: monitor({ lastError, lastJobId: 'job_8', lastRunAt: '2026-03-01T06:00:00.000Z' }) });
    });
    const list = await runCli(['monitors', 'list', '--project', 'prj_1'], { baseUrl: api.url });
    expect(list.code, list.stderr).toBe(0);
    expect(api.requests[0]?.query).toEqual({ limit: '100', offset: '0' });
    expect(list.stdout).toMatch(/^ID\s+NAME\s+TYPE\s+TARGETS\s+SCHEDULE\s+STATUS\s+NEXT RUN\s+LAST FIRED\s+CREDITS$/m);
    expect(list.stdout).toMatch(/^mon_1\s+Headphones\s+details\s+2\s+every 6h\s+active\s+2026-03-0\d \d\d:\d\d\s+-\s+8\/500$/m);
    expect(list.stdout).toMatch(/^mon_2\s+Cables\s+details\s+2\s+0 6 \* \* \* \(UTC\)\s+active\s+.*\s8$/m);

    const get = await runCli(['monitors', 'get', 'mon_1'], { baseUrl: api.url });
    expect(get.stdout).toMatch(/^storefront:\s+amazon\.de, delivered to 10115$/m);
    expect(get.stdout).toMatch(/^credits:\s+8 of 500 this month \(4 per run\)$/m);
    expect(get.stdout).toMatch(/^last error:\s+Not enough credits \(INSUFFICIENT_CREDITS, /m);
    expect(get.stdout).toContain('Rules:\n  1. when price drops by 10 %, confirmed by a second check\n  2. when it becomes unavailable');

    expect((await runCli(['monitors', 'pause', 'mon_1'], { baseUrl: api.url })).stdout).toBe('Monitor mon_1 paused\n');
    expect((await runCli(['monitors', 'resume', 'mon_1'], { baseUrl: api.url })).stdout).toMatch(/^Monitor mon_1 active, next run 2026-03-0\d/);
    expect((await runCli(['monitors', 'delete', 'mon_1'], { baseUrl: api.url })).stdout).toBe('Deleted monitor mon_1\n');
    expect(api.requests.slice(1).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /monitors/mon_1',
      'POST /monitors/mon_1/pause',
      'POST /monitors/mon_1/resume',
      'DELETE /monitors/mon_1',
    ]);
  });

  it('events: a page newest first with each change and its rule in words; --json prints the page', async () => {
    api = await startStubApi((_request, res) =>
      sendJson(res, 200, {
        data: [event(2, 'job_2', '2026-03-02T08:00:00.000Z'), event(1, 'job_1', '2026-03-01T08:00:00.000Z')],
        meta: { total: 7, limit: 2, offset: 2 },
      }),
    );
    const run = await runCli(['monitors', 'events', 'mon_1', '--limit', '2', '--offset', '2'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({ path: '/monitors/mon_1/events', query: { limit: '2', offset: '2' } });
    expect(run.stdout).toMatch(/^WHEN\s+PRODUCT\s+CHANGE\s+RULE\s+JOB$/m);
    expect(run.stdout).toMatch(/^2026-03-0\d \d\d:\d\d\s+B0SIM00001\s+price 49\.99 → 42\.99 \(−14 %\)\s+when price drops by 10 %\s+job_2$/m);
    expect(run.stdout).toContain('3-4 of 7');
    const json = await runCli(['monitors', 'events', 'mon_1', '--json'], { baseUrl: api.url });
    expect(JSON.parse(json.stdout)).toMatchObject({ data: [{ id: 'mev_2' }, { id: 'mev_1' }], meta: { total: 7 } });
  });

  it('run: starts a job; with --wait follows it and lists the rules this run fired; a refused run is exit 1', async () => {
    let refuse = false;
    api = await startStubApi((request, res, raw) => {
      if (request.path === '/monitors/mon_1/run') {
        if (refuse) return sendJson(res, 409, errorEnvelope('CONFLICT', 'The run would pass the monthly budget of 500 credits'));
        return sendJson(res, 201, { data: job('queued') });
      }
      if (request.path === '/jobs/job_9/events') {
        expect(raw.headers.accept).toBe('text/event-stream');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const frame = (id: number, name: string, data: unknown) => `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
        res.end(frame(1, 'job', job('running')) + frame(2, 'monitor', event(3, 'job_9', '2026-03-02T08:00:05.000Z')) + frame(3, 'end', job('completed')));
        return;
      }
      if (request.path === '/monitors/mon_1/events') {
        // Newest first: this run's event, then an older run's, which ends the search.
        return sendJson(res, 200, {
          data: [event(3, 'job_9', '2026-03-02T08:00:05.000Z'), event(2, 'job_2', '2026-03-01T08:00:00.000Z')],
          meta: { total: 2, limit: 100, offset: 0 },
        });
      }
      sendJson(res, 404, errorEnvelope('NOT_FOUND', 'not found'));
    });
    const started = await runCli(['monitors', 'run', 'mon_1'], { baseUrl: api.url });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('Started run job_9 of monitor mon_1: 1 target(s), 2 credits reserved');

    const waited = await runCli(['monitors', 'run', 'mon_1', '--wait'], { baseUrl: api.url });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(/^Run job_9 completed: 1 rule\(s\) fired$/m);
    expect(waited.stdout).toMatch(/price 49\.99 → 42\.99 \(−14 %\)\s+when price drops by 10 %\s+job_9$/m);
    expect(waited.stdout).not.toContain('job_2');

    refuse = true;
    const refused = await runCli(['monitors', 'run', 'mon_1'], { baseUrl: api.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The run would pass the monthly budget of 500 credits (CONFLICT, HTTP 409)');
  });
});
