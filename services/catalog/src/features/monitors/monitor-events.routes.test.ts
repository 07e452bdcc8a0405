import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProductRecord, ReportTargetBody, SearchRecord } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { productRecord, searchRecord } from '../../testing/result-records.ts';
import { WebhookReceiver } from '../../testing/webhook-receiver.ts';

/** The receiver-side check of docs/webhooks.md: HMAC-SHA256 over `id.timestamp.body` with the secret's key. */
function signedBy(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const given = Buffer.from(entry.split(',')[1] ?? '', 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const POLL = { timeout: 5_000, interval: 5 };
const HOUR = 3_600_000;
const price = (amount: number) => ({ amount, currency: 'USD', raw: `$${amount}` });

describe.each(testBackends())('monitor events from history’s changes ($name)', (backend) => {
  let h: CatalogHarness;
  let receiver: WebhookReceiver;
  let alice: HarnessUser;
  let projectId: string;

  async function start(): Promise<void> {
    receiver = await WebhookReceiver.start();
    const clock = new ManualClock('2026-03-02T08:00:00.000Z');
    h = await startCatalogHarness({
      clock,
      env: { ...backend.env(), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_REQUIRE_HTTPS: 'false' },
      webhooks: { timers: clock, random: () => 0.5 },
    });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'watch' } })).body.data.id;
  }

  afterEach(async () => {
    await receiver?.close();
    await h?.close();
  });

  async function monitor(body: Record<string, unknown>): Promise<string> {
    const res = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/monitors`,
      token: alice.token,
      body: { name: 'm', type: 'details', domain: 'amazon.com', every: '1h', watch: ['price'], ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  /** One tick, and the job it made for the monitor (its newest). */
  async function runOf(
    monitorId: string,
    kind: 'scheduled' | 'confirmation' = 'scheduled',
  ): Promise<{ id: string; targets: Array<{ value: string }>; config: any }> {
    await h.catalog.maintenance.tick();
    const jobs = (await h.request({ method: 'GET', url: `/projects/${projectId}/jobs?limit=100`, token: alice.token })).body.data;
    const job = jobs.find((j: { monitorId?: string; monitorRun?: string }) => j.monitorId === monitorId && j.monitorRun === kind);
    expect(job, `a ${kind} job of ${monitorId}`).toBeDefined();
    return job;
  }

  /** The worker's side: claim, then report the target. */
  async function report(jobId: string, index: number, body: ReportTargetBody): Promise<void> {
    expect((await h.claim(jobId, index)).status).toBe(200);
    const res = await h.report(jobId, index, body);
    expect(res.status, res.text).toBe(200);
  }
  const success = (...items: Array<ProductRecord | SearchRecord>): ReportTargetBody => ({ status: 'success', items });

  async function eventsOf(monitorId: string) {
    const res = await h.request({ method: 'GET', url: `/monitors/${monitorId}/events?limit=100`, token: alice.token });
    expect(res.status).toBe(200);
    return res.body as { data: any[]; meta: { total: number } };
  }

  it('a price drop between two runs: one monitor.triggered event listed, and one signed webhook delivery', async () => {
    await start();
    const endpoint = (
      await h.request({
        method: 'POST',
        url: `/projects/${projectId}/webhooks`,
        token: alice.token,
        body: { url: receiver.url(), events: ['monitor.triggered'] },
      })
    ).body.data;
    const monitorId = await monitor({ targets: ['B000000001'], rules: [{ field: 'price', op: 'dropsBy', value: 10 }] });

    const first = await runOf(monitorId);
    await report(first.id, 0, success(productRecord({ asin: 'B000000001', price: price(100) })));
    expect((await eventsOf(monitorId)).meta.total).toBe(0);

    h.clock.advance(HOUR);
    const second = await runOf(monitorId);
    expect(second.id).not.toBe(first.id);
    await report(second.id, 0, success(productRecord({ asin: 'B000000001', price: price(80) })));

    const { data: events, meta } = await eventsOf(monitorId);
    expect(meta.total).toBe(1);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^mev_/),
      type: 'monitor.triggered',
      monitorId,
      projectId,
      organizationId: alice.organizationId,
      target: 'B000000001',
      subject: { kind: 'product', marketplace: 'amazon.com', asin: 'B000000001', zip: null },
      field: 'price',
      rule: { field: 'price', op: 'dropsBy', value: 10 },
      previous: 100,
      current: 80,
      changePercent: -20,
      previousObservedAt: '2026-03-02T08:00:00.000Z',
      observedAt: '2026-03-02T09:00:00.000Z',
      jobId: second.id,
      resultId: `${second.id}:0:0`,
      confirmedBy: null,
      createdAt: '2026-03-02T09:00:00.000Z',
    });
    expect((await h.request({ method: 'GET', url: `/monitors/${monitorId}`, token: alice.token })).body.data.lastTriggeredAt).toBe('2026-03-02T09:00:00.000Z');

    await h.catalog.webhooks.dispatch();
    await vi.waitUntil(() => receiver.events('monitor.triggered').length === 1, POLL);
    await h.catalog.webhooks.dispatch();
    const [delivery] = receiver.events('monitor.triggered');
    expect(receiver.requests).toHaveLength(1);
    expect(signedBy(endpoint.secret, delivery?.headers ?? {}, delivery?.body ?? '')).toBe(true);
    expect(signedBy(endpoint.secret, delivery?.headers ?? {}, (delivery?.body ?? '').replace('"current":80', '"current":8'))).toBe(false);
    expect(delivery?.event).toEqual({
      id: delivery?.headers['webhook-id'],
      type: 'monitor.triggered',
      timestamp: '2026-03-02T09:00:00.000Z',
      data: {
        monitorEvent: events[0],
        links: {
          monitor: `/monitors/${monitorId}`,
          monitorEvents: `/monitors/${monitorId}/events`,
          job: `/jobs/${second.id}`,
          results: `/jobs/${second.id}/results`,
        },
      },
    });
  });

  it('cooldown keeps a rule quiet for the same target; blocked, failed and partial pages fire nothing', async () => {
    await start();
    const monitorId = await monitor({ targets: ['B000000001', 'B000000002'], rules: [{ field: 'price', op: 'dropsBy', value: 10 }], cooldown: '2h' });
    const both = async (first: ReportTargetBody, second: ReportTargetBody) => {
      const job = await runOf(monitorId);
      await report(job.id, 0, first);
      await report(job.id, 1, second);
      h.clock.advance(HOUR);
      return job.id;
    };
    await both(success(productRecord({ asin: 'B000000001', price: price(100) })), success(productRecord({ asin: 'B000000002', price: price(100) })));
    await both(success(productRecord({ asin: 'B000000001', price: price(80) })), success(productRecord({ asin: 'B000000002', price: price(100) })));
    expect((await eventsOf(monitorId)).data.map((e) => [e.target, e.current])).toEqual([['B000000001', 80]]);
    // An hour later, within the 2h cooldown of B000000001's rule; another target has its own.
    await both(success(productRecord({ asin: 'B000000001', price: price(60) })), success(productRecord({ asin: 'B000000002', price: price(50) })));
    expect((await eventsOf(monitorId)).data.map((e) => [e.target, e.current])).toEqual([
      ['B000000002', 50],
      ['B000000001', 80],
    ]);
    // Two hours after the first event: B000000001 fires again.
    await both(success(productRecord({ asin: 'B000000001', price: price(50) })), success(productRecord({ asin: 'B000000002', price: price(50) })));
    expect((await eventsOf(monitorId)).data.map((e) => [e.target, e.previous, e.current])).toEqual([
      ['B000000001', 60, 50],
      ['B000000002', 100, 50],
      ['B000000001', 100, 80],
    ]);

    h.clock.advance(3 * HOUR);
    // A blocked page and a failed one, then a partial record (a required field missing) with a lower price.
    await both({ status: 'failed', reason: 'blocked', blockKind: 'captcha', items: [] }, { status: 'failed', reason: 'timeout', items: [] });
    const partial = productRecord({ asin: 'B000000001', price: price(20), quality: { status: 'partial', missing: ['rating'] } });
    await both({ status: 'success', uncharged: 'partial', items: [partial] }, success(productRecord({ asin: 'B000000002', price: price(50) })));
    expect((await eventsOf(monitorId)).meta.total).toBe(3);
  });

  it('confirm: the change is re-crawled in a one-target job and fires only when it is still there', async () => {
    await start();
    const targets = ['B000000005', 'B000000006', 'B000000007'];
    const monitorId = await monitor({ targets, rules: [{ field: 'price', op: 'dropsBy', value: 10, confirm: true }] });
    const run = await runOf(monitorId);
    for (const [index, asin] of targets.entries()) await report(run.id, index, success(productRecord({ asin, price: price(100) })));
    h.clock.advance(HOUR);
    const dropped = await runOf(monitorId);
    for (const [index, asin] of targets.entries()) await report(dropped.id, index, success(productRecord({ asin, price: price(80) })));
    // Nothing fires from the run itself.
    expect((await eventsOf(monitorId)).meta.total).toBe(0);

    h.clock.advance(30_000);
    await h.catalog.maintenance.tick();
    const jobs = (await h.request({ method: 'GET', url: `/projects/${projectId}/jobs?limit=100`, token: alice.token })).body.data;
    const confirmations = new Map<string, any>(
      jobs.filter((j: { monitorRun?: string }) => j.monitorRun === 'confirmation').map((j: { targets: Array<{ value: string }> }) => [j.targets[0]?.value, j]),
    );
    expect([...confirmations.keys()].sort()).toEqual(targets);
    const still = confirmations.get('B000000005');
    expect(still).toMatchObject({ monitorId, type: 'details', creditsReserved: 2, config: { domain: 'amazon.com', require: ['price'] } });
    expect(still.targets).toHaveLength(1);
    expect((await h.request({ method: 'GET', url: `/monitors/${monitorId}`, token: alice.token })).body.data.credits.used).toBe(6 + 6 + 6);

    await report(still.id, 0, success(productRecord({ asin: 'B000000005', price: price(80) })));
    await report(confirmations.get('B000000006').id, 0, success(productRecord({ asin: 'B000000006', price: price(100) })));
    await report(confirmations.get('B000000007').id, 0, { status: 'failed', reason: 'blocked', blockKind: 'robot_check', items: [] });
    await h.catalog.maintenance.tick();
    await vi.waitUntil(async () => (await eventsOf(monitorId)).meta.total > 0, POLL);
    await h.catalog.maintenance.tick();

    const { data: events } = await eventsOf(monitorId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      target: 'B000000005',
      previous: 100,
      current: 80,
      jobId: dropped.id,
      rule: { field: 'price', op: 'dropsBy', value: 10, confirm: true },
      confirmedBy: { jobId: still.id },
    });
  });

  it('a search monitor: a product entering the top 3 of a keyword fires, named by the keyword and the ASIN', async () => {
    await start();
    const res = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/monitors`,
      token: alice.token,
      body: {
        name: 'ranks',
        type: 'search',
        targets: ['USB cable'],
        domain: 'amazon.com',
        every: '1h',
        watch: ['organicRank'],
        rules: [{ field: 'organicRank', op: 'entersTop', value: 3 }],
      },
    });
    const monitorId = res.body.data.id;
    const page = (ranks: Record<string, number>) =>
      success(...Object.entries(ranks).map(([asin, rank]) => searchRecord({ asin, rank, position: rank, keyword: 'USB cable' })));
    const run = await runOf(monitorId);
    await report(run.id, 0, page({ B00000000A: 1, B00000000B: 2, B00000000C: 3, B00000000D: 4 }));
    h.clock.advance(HOUR);
    const next = await runOf(monitorId);
    await report(next.id, 0, page({ B00000000A: 1, B00000000D: 2, B00000000B: 3, B00000000C: 4 }));
    const { data: events } = await eventsOf(monitorId);
    expect(events.map((e) => [e.target, e.subject.asin, e.previous, e.current])).toEqual([['USB cable', 'B00000000D', 4, 2]]);
    expect(events[0].subject).toEqual({ kind: 'rank', marketplace: 'amazon.com', keyword: 'usb cable', asin: 'B00000000D' });
  });

  it('sends the event on the run’s live stream, after the target event it is about', async () => {
    await start();
    const monitorId = await monitor({ targets: ['B000000001'], rules: [{ field: 'price', op: 'below', value: 90 }] });
    const first = await runOf(monitorId);
    await report(first.id, 0, success(productRecord({ asin: 'B000000001', price: price(100) })));
    h.clock.advance(HOUR);
    const second = await runOf(monitorId);
    const opened = await h.catalog.jobEvents.open(alice.organizationId, second.id, undefined);
    if (!('stream' in opened)) throw new Error('the stream of a queued job opens');
    let text = '';
    opened.stream.body.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const ended = new Promise((resolve) => opened.stream.body.on('end', resolve));
    await report(second.id, 0, success(productRecord({ asin: 'B000000001', price: price(85) })));
    await ended;
    const frames = [...text.matchAll(/id: (\d+)\nevent: (\w+)\ndata: (.*)\n\n/g)].map(([, id, event, data]) => ({
      id: Number(id),
      event,
      data: JSON.parse(data as string),
    }));
    // The snapshot, the first claim, the target, its monitor event, the status change, the end.
    expect(frames.map((f) => f.event)).toEqual(['job', 'job', 'target', 'monitor', 'job', 'end']);
    const monitorFrame = frames.find((f) => f.event === 'monitor');
    const targetFrame = frames.find((f) => f.event === 'target');
    expect(monitorFrame?.id).toBe(targetFrame?.id);
    expect(monitorFrame?.data).toEqual((await eventsOf(monitorId)).data[0]);
    expect(monitorFrame?.data).toMatchObject({ field: 'price', previous: 100, current: 85, jobId: second.id });
  });
});
