import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, type JobEvent, type JobUpdate, type Monitor, type MonitorEvent } from '../src/index.ts';
import { envelope, job, type LocalServer, sendJson, sseFrame, startLocalServer } from './local-server.ts';

const monitor = (id: string, extra: Partial<Monitor> = {}): Monitor => ({
  id,
  projectId: 'prj_1',
  organizationId: 'org_1',
  name: 'Headphones',
  type: 'details',
  targets: ['B0SIM00001'],
  domain: 'amazon.de',
  deliveryZip: null,
  every: '6h',
  cron: null,
  timezone: null,
  watch: ['price'],
  rules: [{ field: 'price', op: 'dropsBy', value: 10 }],
  cooldown: '1h',
  maxCreditsPerMonth: null,
  credits: { month: '2026-03', used: 0, perRun: 2 },
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

const monitorEvent = (n: number): MonitorEvent => ({
  id: `mev_${n}`,
  type: 'monitor.triggered',
  monitorId: 'mon_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  target: 'B0SIM00001',
  subject: { kind: 'product', marketplace: 'amazon.de', asin: 'B0SIM00001', zip: null },
  field: 'price',
  rule: { field: 'price', op: 'dropsBy', value: 10 },
  previous: 50,
  current: 40,
  changePercent: -20,
  previousObservedAt: '2026-03-01T00:00:00.000Z',
  observedAt: '2026-03-01T06:00:00.000Z',
  jobId: 'job_1',
  resultId: 'job_1:0:0',
  confirmedBy: null,
  createdAt: `2026-03-01T06:00:${String(n).padStart(2, '0')}.000Z`,
});

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? JSON.parse(text) : undefined;
}

describe('monitors', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('creates, reads, updates, pauses, resumes, runs and deletes, each on its route', async () => {
    const bodies: unknown[] = [];
    server = await startLocalServer(async (req, res) => {
      bodies.push(await bodyOf(req));
      const route = `${req.method} ${req.url}`;
      if (route === 'POST /projects/prj_1/monitors') return sendJson(res, 201, { data: monitor('mon_1') });
      if (route === 'POST /monitors/mon_1/run')
        return sendJson(res, 201, { data: job('queued', ['B0SIM00001'] as never, { monitorId: 'mon_1', monitorRun: 'manual' }) });
      if (route === 'DELETE /monitors/mon_1') {
        res.writeHead(204);
        res.end();
        return;
      }
      if (route === 'POST /monitors/mon_1/pause') return sendJson(res, 200, { data: monitor('mon_1', { status: 'paused', pausedReason: 'user' }) });
      sendJson(res, 200, { data: monitor('mon_1', { name: 'Renamed' }) });
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const body = {
      name: 'Headphones',
      type: 'details' as const,
      targets: ['B0SIM00001'],
      domain: 'amazon.de',
      every: '6h',
      watch: ['price' as const],
      rules: [{ field: 'price' as const, op: 'dropsBy' as const, value: 10 }],
    };
    expect((await crawl.monitors.create('prj_1', body)).id).toBe('mon_1');
    expect((await crawl.monitors.get('mon_1')).name).toBe('Renamed');
    await crawl.monitors.update('mon_1', { name: 'Renamed', maxCreditsPerMonth: null });
    expect((await crawl.monitors.pause('mon_1')).pausedReason).toBe('user');
    await crawl.monitors.resume('mon_1');
    const run = await crawl.monitors.run('mon_1');
    // The run's job is normalized like every job: plain-string targets become objects.
    expect(run).toMatchObject({ monitorId: 'mon_1', monitorRun: 'manual', targets: [{ value: 'B0SIM00001', status: 'pending' }] });
    expect(await crawl.monitors.delete('mon_1')).toBeUndefined();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /projects/prj_1/monitors',
      'GET /monitors/mon_1',
      'PATCH /monitors/mon_1',
      'POST /monitors/mon_1/pause',
      'POST /monitors/mon_1/resume',
      'POST /monitors/mon_1/run',
      'DELETE /monitors/mon_1',
    ]);
    expect(bodies[0]).toEqual(body);
    expect(bodies[2]).toEqual({ name: 'Renamed', maxCreditsPerMonth: null });
  });

  it("lists a project's monitors a page at a time and iterates them to meta.total", async () => {
    const all = Array.from({ length: 5 }, (_, i) => monitor(`mon_${i}`));
    server = await startLocalServer((req, res) => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const limit = Number(query.get('limit') ?? 20);
      const offset = Number(query.get('offset') ?? 0);
      sendJson(res, 200, { data: all.slice(offset, offset + Math.min(limit, 2)), meta: { total: all.length, limit, offset } });
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    const page = await crawl.monitors.list('prj_1', { limit: 2, offset: 2 });
    expect(page.data.map((m) => m.id)).toEqual(['mon_2', 'mon_3']);
    expect(page.meta).toEqual({ total: 5, limit: 2, offset: 2 });
    const ids: string[] = [];
    for await (const m of crawl.monitors.iterate('prj_1')) ids.push(m.id);
    expect(ids).toEqual(['mon_0', 'mon_1', 'mon_2', 'mon_3', 'mon_4']);
    expect(server.requests.slice(1).map((r) => r.url)).toEqual([
      '/projects/prj_1/monitors?limit=100&offset=0',
      '/projects/prj_1/monitors?limit=100&offset=2',
      '/projects/prj_1/monitors?limit=100&offset=4',
    ]);
  });

  it('iterates events newest first to the end, skipping the one an event that fired meanwhile pushed onto the next page', async () => {
    // Events 7..1, newest first; after the first page, event 8 fires and moves the others down.
    let events = [7, 6, 5, 4, 3, 2, 1].map(monitorEvent);
    server = await startLocalServer((req, res) => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const offset = Number(query.get('offset'));
      const page = events.slice(offset, offset + 3);
      sendJson(res, 200, { data: page, meta: { total: events.length, limit: 3, offset } });
      if (offset === 0) events = [monitorEvent(8), ...events];
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    const seen: string[] = [];
    for await (const event of crawl.monitors.iterateEvents('mon_1', { limit: 3 })) seen.push(event.id);
    expect(seen).toEqual(['mev_7', 'mev_6', 'mev_5', 'mev_4', 'mev_3', 'mev_2', 'mev_1']);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('offset'))).toEqual(['0', '3', '6']);
    expect(server.requests[0]?.url).toBe('/monitors/mon_1/events?limit=3&offset=0');
  });

  it('maps refusals: a run past the budget is a CONFLICT with its details, an unknown monitor NOT_FOUND', async () => {
    const details = [{ reason: 'MONITOR_BUDGET_EXHAUSTED', credits: 2, maxCreditsPerMonth: 10 }];
    server = await startLocalServer((req, res) => {
      if (req.url === '/monitors/mon_1/run') return sendJson(res, 409, envelope('CONFLICT', 'The run would pass the monthly budget', details));
      sendJson(res, 404, envelope('NOT_FOUND', 'Monitor not found'));
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    const refused = await crawl.monitors.run('mon_1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CrawlApiError);
    expect(refused).toMatchObject({ code: 'CONFLICT', status: 409, details });
    await expect(crawl.monitors.events('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(crawl.monitors.delete('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("hands out a monitor run's `monitor` events on the job stream, and wait() goes by them", async () => {
    const target = { value: 'B0SIM00001', status: 'pending' };
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sseFrame(1, 'job', job('running', [target])) +
          sseFrame(2, 'target', {
            jobId: 'job_1',
            index: 0,
            target: { ...target, status: 'success' },
            progress: { total: 1, done: 1, failed: 0, pending: 0 },
          }) +
          // A monitor event repeats the id of the target event it follows.
          sseFrame(2, 'monitor', monitorEvent(1)) +
          sseFrame(3, 'end', job('completed', [{ ...target, status: 'success' }])),
      );
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    const events: JobEvent[] = [];
    for await (const event of crawl.jobs.events('job_1')) events.push(event);
    expect(events.map((e) => [e.type, e.id])).toEqual([
      ['job', '1'],
      ['target', '2'],
      ['monitor', '2'],
      ['end', '3'],
    ]);
    expect(events[2]).toEqual({ type: 'monitor', id: '2', event: monitorEvent(1) });
    const updates: JobUpdate[] = [];
    const done = await crawl.jobs.wait('job_1', { onProgress: (u) => updates.push(u) });
    expect(done.status).toBe('completed');
    expect(updates.map((u) => u.event?.type)).toEqual(['job', 'target', 'end']);
  });
});
