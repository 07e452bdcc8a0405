/**
 * The SDK's history and monitors methods against a running all-in-one crawling a simulator whose
 * products the test changes: real cursors followed to the end one point at a time, a monitor's
 * events on its run's live stream and in its paged list, and the API's refusals typed.
 */
import { randomUUID } from 'node:crypto';
import { CrawlApiError, CrawlClient, type HistoryPoint, type JobEvent, type MonitorEvent, parseRule } from '@crawl/sdk';
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PRODUCT = 'B0SIM00021';
const OTHER = 'B0SIM00022';

async function control(sim: Simulator, asin: string, body: unknown): Promise<void> {
  const res = await fetch(`${sim.url}/__control/products/${asin}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`simulator control ${asin}: ${res.status} ${await res.text()}`);
}

describe('the SDK: history and monitors against a running all-in-one', () => {
  let sim: Simulator;
  let api: ListeningService;
  let crawl: CrawlClient;
  let projectId: string;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 51 });
    api = await startListeningAllInOne({ MARKETPLACE: 'live', MARKETPLACE_BASE_URL: sim.url, MARKETPLACE_EXTRA_HOSTS: sim.host });
    crawl = new CrawlClient({ baseUrl: api.url });
    await crawl.auth.register({ email: `sdk-watch-${randomUUID().slice(0, 8)}@example.com`, password: 'a-long-enough-password' });
    projectId = (await crawl.projects.create({ name: 'Watched' })).id;
  });
  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  it('follows real cursors over change points and ranks, and reads the latest values', async () => {
    for (const price of [30, 27, 33]) {
      await control(sim, PRODUCT, { price, inStock: true });
      const job = await crawl.jobs.create(projectId, { type: 'details', targets: [PRODUCT] });
      expect((await crawl.jobs.wait(job.id, { timeoutMs: 30_000 })).status).toBe('completed');
    }
    const prices: unknown[] = [];
    // One point a page: the loop follows each nextCursor the server hands out.
    for await (const point of crawl.history.iterateProduct(PRODUCT, { limit: 1, fields: ['price'], from: new Date(Date.now() - 3_600_000) })) {
      expect(Object.keys(point.values)).toEqual(['price']);
      prices.push(point.values.price);
    }
    expect(prices).toEqual([30, 27, 33]);
    const page = await crawl.history.product(PRODUCT, { limit: 2 });
    expect(page.points).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const daily: HistoryPoint[] = [];
    for await (const point of crawl.history.iterateProduct(PRODUCT, { resolution: '1d' })) daily.push(point);
    expect(daily.at(-1)?.values.price).toBe(33);

    const latest = await crawl.history.latest(PRODUCT);
    expect(latest).toMatchObject({ subject: { marketplace: 'amazon.com', asin: PRODUCT, zip: null }, values: { price: 33, inStock: true } });
    await expect(crawl.history.latest(PRODUCT, { domain: 'amazon.de' })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });

    const search = await crawl.jobs.create(projectId, { type: 'search', targets: ['Desk  Lamp'] });
    expect((await crawl.jobs.wait(search.id, { timeoutMs: 30_000 })).status).toBe('completed');
    const asins = new Set<string>();
    let points = 0;
    for await (const point of crawl.history.iterateKeywordRanks('desk lamp', { limit: 3 })) {
      asins.add(point.asin);
      points++;
    }
    expect(points).toBeGreaterThan(3);
    expect(asins.size).toBe(points);
    const bad = await crawl.history.product(PRODUCT, { fields: 'colour' as never }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(CrawlApiError);
    expect(bad).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it("creates a monitor with rules from text, hears its run's monitor events on the job stream, and pages its events", async () => {
    const refused = await crawl.monitors
      .create(projectId, {
        name: 'Bad',
        type: 'details',
        targets: [OTHER],
        domain: 'amazon.com',
        every: '6h',
        watch: ['price'],
        rules: [{ field: 'rating', op: 'above', value: 4 }],
      })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect((refused as CrawlApiError).details.join(' ')).toContain('rules[0].field "rating" is not watched');

    await control(sim, OTHER, { price: 80, inStock: true });
    const monitor = await crawl.monitors.create(projectId, {
      name: 'Lamp',
      type: 'details',
      targets: [OTHER],
      domain: 'amazon.com',
      every: '6h',
      watch: ['price', 'inStock'],
      rules: [parseRule('price dropsBy 5'), parseRule('price below 70')],
      // No quiet time: the second drop fires the drop rule again.
      cooldown: '0m',
    });
    expect((await crawl.monitors.list(projectId)).data.map((m) => m.id)).toContain(monitor.id);

    const baseline = await crawl.monitors.run(monitor.id);
    expect((await crawl.jobs.wait(baseline.id, { timeoutMs: 30_000 })).status).toBe('completed');

    const heard: MonitorEvent[] = [];
    for (const price of [72, 60]) {
      await control(sim, OTHER, { price });
      const run = await crawl.monitors.run(monitor.id);
      const seen: JobEvent[] = [];
      for await (const event of crawl.jobs.events(run.id)) seen.push(event);
      expect(seen.at(-1)?.type).toBe('end');
      for (const event of seen) if (event.type === 'monitor') heard.push(event.event);
    }
    // 80 → 72 is a 10 % drop; 72 → 60 another drop and a crossing under 70.
    expect(heard.map((e) => [e.rule.op, e.previous, e.current])).toEqual(
      expect.arrayContaining([
        ['dropsBy', 80, 72],
        ['dropsBy', 72, 60],
        ['below', 72, 60],
      ]),
    );
    expect(heard).toHaveLength(3);

    const listed: string[] = [];
    for await (const event of crawl.monitors.iterateEvents(monitor.id, { limit: 1 })) listed.push(event.id);
    expect(listed).toHaveLength(3);
    expect(new Set(listed)).toEqual(new Set(heard.map((e) => e.id)));
    const first = await crawl.monitors.events(monitor.id, { limit: 1 });
    expect(first.meta).toEqual({ total: 3, limit: 1, offset: 0 });

    expect((await crawl.monitors.pause(monitor.id)).status).toBe('paused');
    expect((await crawl.monitors.update(monitor.id, { every: '12h', enabled: true })).every).toBe('12h');
    await crawl.monitors.delete(monitor.id);
    await expect(crawl.monitors.get(monitor.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
