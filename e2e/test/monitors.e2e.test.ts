/**
 * Monitors and history end to end, in each run mode (run-modes.ts): a user sets a details monitor
 * on four simulator products and a search monitor on a keyword through the public API, with a
 * webhook endpoint for `monitor.triggered` at a local receiver that verifies every signature. A
 * first run records the baseline in history and fires nothing. The marketplace then changes
 * through the simulator's control routes (a price drop, a stock-out, another seller in the buy
 * box, a product moved into the top results), and the next run fires exactly one event per
 * change, listed with its values and delivered signed, while history opens a second change point
 * for each changed product and extends the unchanged one. A product whose page is blocked fires
 * nothing and leaves its history as it was, although its price dropped; so does a page shown for
 * another delivery location than the monitor's. Once the page reads right again, the same drop fires.
 */
import type {
  Job,
  KeywordRanks,
  Monitor,
  MonitorEvent,
  MonitorTriggeredWebhookData,
  ProductHistory,
  ProductObservation,
  Project,
  SearchRecord,
  WebhookDelivery,
  WebhookEndpointWithSecret,
} from '@crawl/contracts';
import { ADDRESS_CHANGE_PATH, createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './http-call.ts';
import { runModes, type RunningService } from './run-modes.ts';
import { SignedWebhookReceiver } from './signed-webhook-receiver.ts';

const SECRET = 'monitors-e2e-secret-that-is-long-enough-0123456789';
/** The catalog lets webhooks reach the local receiver (the address guard refuses loopback and plain HTTP otherwise). */
const WEBHOOKS_TO_LOCALHOST = { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
/**
 * One request per crawl session: every target sets its delivery location on a fresh session, so a
 * location widget that stops answering shows on the next run instead of hiding behind a session
 * that kept the location from before.
 */
const FRESH_SESSIONS = { SESSION_MAX_USES: '1' };

/** The details monitor's products: a price drop, a stock-out, a seller change, and one left alone. */
const PRICE_DROP = 'B0SIM00031';
const STOCK_OUT = 'B0SIM00032';
const NEW_SELLER = 'B0SIM00033';
const UNCHANGED = 'B0SIM00034';
const PRODUCTS = [PRICE_DROP, STOCK_OUT, NEW_SELLER, UNCHANGED];
const KEYWORD = 'desk lamp';
const TOP = 3;
const SELLER = 'Harbor Goods Trading';
/** The product watched at a delivery location. */
const AT_ZIP = 'B0SIM00035';
const ZIP = '10001';

const TERMINAL = ['completed', 'failed', 'cancelled'];
const WAIT = { timeout: 60_000, interval: 100 };

/** A price `percent` % lower, in cents, rounded down so the drop is at least that. */
const lowered = (price: number, percent: number): number => Math.floor(price * (100 - percent)) / 100;
/** (current − previous) / previous × 100, 2 decimals, as the event's `changePercent`. */
const percentChange = (previous: number, current: number): number => Math.round(((current - previous) / previous) * 10_000) / 100;

/** One request to the simulator's control routes (never faulted, never seen by the crawler). */
async function control(sim: Simulator, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${sim.url}/__control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`simulator control ${method} ${path}: ${res.status} ${text}`);
}

const modes = await runModes();

describe.each(modes)('monitors and history end to end: $name', (mode) => {
  if (mode.skipReason) {
    it('needs its backends', (context) => {
      console.warn(`[monitors e2e: ${mode.name} skipped] ${mode.skipReason}`);
      context.skip(mode.skipReason);
    });
    return;
  }

  let sim: Simulator;
  let service: RunningService;
  let receiver: SignedWebhookReceiver;
  let token: string;
  let projectId: string;
  let endpointId: string;
  let details: Monitor;
  let search: Monitor;
  /** What the first run saw, per ASIN; the searched ASIN moved into the top and its first rank. */
  const baseline = new Map<string, ProductObservation>();
  let climber: { asin: string; rank: number };
  let secondRun: Job;

  const url = () => service.url;
  async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T; meta?: { total: number } }> {
    const res = await call(url(), method, path, { token, body });
    return { status: res.status, data: res.body?.data as T, meta: res.body?.meta };
  }
  const history = async (asin: string) => (await api<ProductHistory>('GET', `/products/${asin}/history?limit=100`)).data;
  const latest = async (asin: string) => (await api<ProductObservation>('GET', `/products/${asin}`)).data;
  const eventsOf = async (monitor: Monitor) => {
    const res = await api<MonitorEvent[]>('GET', `/monitors/${monitor.id}/events?limit=100`);
    expect(res.status).toBe(200);
    return { events: res.data, total: res.meta?.total };
  };

  /** POST /monitors/:id/run, then the job once it has ended. */
  async function run(monitor: Monitor): Promise<Job> {
    const started = await api<Job>('POST', `/monitors/${monitor.id}/run`);
    expect(started.status, JSON.stringify(started.data)).toBe(201);
    expect(started.data).toMatchObject({ monitorId: monitor.id, monitorRun: 'manual', projectId });
    let job: Job | undefined;
    await vi.waitFor(async () => {
      job = (await api<Job>('GET', `/jobs/${started.data.id}`)).data;
      expect(TERMINAL, `job ${started.data.id}: ${JSON.stringify(job)}`).toContain(job?.status);
    }, WAIT);
    return job as Job;
  }

  /** The receiver's verified monitor.triggered deliveries, once there are `count` of them. */
  async function deliveries(count: number) {
    await vi.waitFor(() => expect(receiver.events('monitor.triggered').length).toBeGreaterThanOrEqual(count), WAIT);
    return receiver.events<MonitorTriggeredWebhookData>('monitor.triggered');
  }

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 19 });
    receiver = await SignedWebhookReceiver.start();
    service = await mode.start(sim, SECRET, { ...WEBHOOKS_TO_LOCALHOST, ...FRESH_SESSIONS });

    const registered = await call(url(), 'POST', '/auth/register', {
      body: { email: `monitors-${Date.now()}@example.com`, password: 'a-long-enough-password' },
    });
    expect(registered.status).toBe(201);
    token = registered.body.accessToken;
    const project = await api<Project>('POST', '/projects', { name: 'Watched products' });
    expect(project.status).toBe(201);
    projectId = project.data.id;

    const endpoint = await api<WebhookEndpointWithSecret>('POST', `/projects/${projectId}/webhooks`, {
      url: receiver.url(),
      events: ['monitor.triggered'],
    });
    expect(endpoint.status).toBe(201);
    expect(endpoint.data.events).toEqual(['monitor.triggered']);
    endpointId = endpoint.data.id;
    receiver.secret = endpoint.data.secret;
  }, 150_000);

  afterAll(async () => {
    const codes = await service?.stop();
    await receiver?.close();
    await sim?.close();
    // Every process drained and exited cleanly on SIGTERM.
    if (codes) expect(Object.entries(codes).filter(([, code]) => code !== 0)).toEqual([]);
  }, 60_000);

  /** Any failure shows what the processes said. */
  async function explained(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      console.error(`[monitors e2e: ${mode.name}] process output:\n${service.output()}`);
      throw error;
    }
  }

  it(
    'creates the monitors; a first run records each product and rank in history and fires nothing',
    () =>
      explained(async () => {
        // Runs only when asked here: a yearly cron keeps the scheduler's runs out of the counts.
        const schedule = { cron: '0 0 1 1 *', timezone: 'UTC' };
        const createdDetails = await api<Monitor>('POST', `/projects/${projectId}/monitors`, {
          name: 'Desk gear',
          type: 'details',
          targets: PRODUCTS,
          domain: 'amazon.com',
          ...schedule,
          watch: ['price', 'inStock', 'buyBoxSeller'],
          rules: [
            { field: 'price', op: 'dropsBy', value: 10 },
            { field: 'inStock', op: 'becomesUnavailable' },
            { field: 'buyBoxSeller', op: 'sellerChanges' },
          ],
        });
        expect(createdDetails.status, JSON.stringify(createdDetails.data)).toBe(201);
        details = createdDetails.data;
        expect(details).toMatchObject({ status: 'active', targets: PRODUCTS, credits: { used: 0, perRun: 8 } });
        const createdSearch = await api<Monitor>('POST', `/projects/${projectId}/monitors`, {
          name: 'Lamp ranking',
          type: 'search',
          targets: [KEYWORD],
          domain: 'amazon.com',
          ...schedule,
          watch: ['organicRank'],
          rules: [{ field: 'organicRank', op: 'entersTop', value: TOP }],
        });
        expect(createdSearch.status, JSON.stringify(createdSearch.data)).toBe(201);
        search = createdSearch.data;

        const first = await run(details);
        expect(first.status).toBe('completed');
        expect(first.targets.map((t) => [t.value, t.status])).toEqual(PRODUCTS.map((asin) => [asin, 'success']));
        for (const asin of PRODUCTS) {
          const { points, subject } = await history(asin);
          expect(subject).toEqual({ marketplace: 'amazon.com', asin, zip: null });
          expect(points, asin).toHaveLength(1);
          expect(points[0]?.checks).toBe(1);
          const now = await latest(asin);
          expect(now).toMatchObject({ checks: 1, since: points[0]?.from, lastSeenAt: points[0]?.to });
          expect(now.values).toMatchObject({ price: expect.any(Number), inStock: true, buyBoxSeller: expect.any(String) });
          expect(points[0]?.values).toMatchObject({ price: now.values.price, inStock: true, buyBoxSeller: now.values.buyBoxSeller });
          baseline.set(asin, now);
        }
        // The seller set below is another than the one the page showed.
        expect(baseline.get(NEW_SELLER)?.values.buyBoxSeller).not.toBe(SELLER);

        const firstSearch = await run(search);
        expect(firstSearch.status).toBe('completed');
        const results = await call(url(), 'GET', `/jobs/${firstSearch.id}/results?pageSize=100`, { token });
        const items = results.body.data.items as SearchRecord[];
        const organic = items.filter((item) => typeof item.rank === 'number' && !item.sponsored);
        // A product ranked below the top, shown only once on the page (no ad of it), to move into it.
        const counts = new Map<string, number>();
        for (const item of items) counts.set(item.asin, (counts.get(item.asin) ?? 0) + 1);
        const candidate = organic.find((item) => (item.rank as number) >= TOP + 4 && counts.get(item.asin) === 1);
        expect(candidate, 'an organic result below the top').toBeDefined();
        climber = { asin: candidate?.asin as string, rank: candidate?.rank as number };
        const ranks = (await api<KeywordRanks>('GET', `/keywords/${encodeURIComponent(KEYWORD)}/ranks?asin=${climber.asin}`)).data;
        expect(ranks).toMatchObject({ keyword: KEYWORD, marketplace: 'amazon.com' });
        expect(ranks.points).toEqual([expect.objectContaining({ asin: climber.asin, checks: 1, organicRank: climber.rank, page: 1 })]);

        // A first check is the baseline: no event, no delivery.
        expect((await eventsOf(details)).total).toBe(0);
        expect((await eventsOf(search)).total).toBe(0);
        expect(receiver.received).toHaveLength(0);
      }),
    150_000,
  );

  it(
    'fires one signed monitor.triggered event per change within the next run, and history opens a change point for each',
    () =>
      explained(async () => {
        const priceBefore = baseline.get(PRICE_DROP)?.values.price as number;
        const priceAfter = lowered(priceBefore, 20);
        await control(sim, 'POST', `/products/${PRICE_DROP}`, { price: priceAfter });
        await control(sim, 'POST', `/products/${STOCK_OUT}`, { inStock: false });
        await control(sim, 'POST', `/products/${NEW_SELLER}`, { seller: SELLER });
        await control(sim, 'POST', '/search-ranks', { keyword: KEYWORD, asin: climber.asin, rank: 1 });

        secondRun = await run(details);
        expect(secondRun.targets.map((t) => [t.value, t.status])).toEqual(PRODUCTS.map((asin) => [asin, 'success']));
        const secondSearch = await run(search);
        expect(secondSearch.status).toBe('completed');

        // History first: the changed products have a second change point, the unchanged one is extended.
        const points = new Map<string, ProductHistory['points']>();
        for (const asin of PRODUCTS) points.set(asin, (await history(asin)).points);
        const pointsOf = (asin: string) => points.get(asin) as ProductHistory['points'];
        for (const asin of [PRICE_DROP, STOCK_OUT, NEW_SELLER]) {
          expect(pointsOf(asin), asin).toHaveLength(2);
          expect(pointsOf(asin).map((p) => p.checks)).toEqual([1, 1]);
          expect(pointsOf(asin)[0]?.values).toMatchObject(baseline.get(asin)?.values ?? {});
        }
        expect(pointsOf(PRICE_DROP)[1]?.values).toMatchObject({ price: priceAfter, inStock: true });
        // The stock-out's page shows no price: the last known one stands, and no price change is read.
        expect(pointsOf(STOCK_OUT)[1]?.values).toMatchObject({ inStock: false, price: baseline.get(STOCK_OUT)?.values.price });
        expect(pointsOf(NEW_SELLER)[1]?.values).toMatchObject({ buyBoxSeller: SELLER, price: baseline.get(NEW_SELLER)?.values.price });
        expect(pointsOf(UNCHANGED)).toEqual([expect.objectContaining({ checks: 2, values: baseline.get(UNCHANGED)?.values })]);
        expect(await latest(UNCHANGED)).toMatchObject({ checks: 2, values: baseline.get(UNCHANGED)?.values });
        const ranks = (await api<KeywordRanks>('GET', `/keywords/${encodeURIComponent(KEYWORD)}/ranks?asin=${climber.asin}`)).data;
        expect(ranks.points.map((p) => [p.organicRank, p.checks])).toEqual([
          [climber.rank, 1],
          [1, 1],
        ]);

        // Exactly the expected events, each with the values before and after.
        const listed = await eventsOf(details);
        expect(listed.total).toBe(3);
        const byTarget = new Map(listed.events.map((event) => [event.target, event]));
        expect([...byTarget.keys()].sort()).toEqual([PRICE_DROP, STOCK_OUT, NEW_SELLER].sort());
        const common = (asin: string) => ({
          id: expect.stringMatching(/^mev_/),
          type: 'monitor.triggered',
          monitorId: details.id,
          projectId,
          organizationId: details.organizationId,
          target: asin,
          subject: { kind: 'product', marketplace: 'amazon.com', asin, zip: null },
          previousObservedAt: pointsOf(asin)[0]?.to,
          observedAt: pointsOf(asin)[1]?.from,
          jobId: secondRun.id,
          resultId: `${secondRun.id}:${PRODUCTS.indexOf(asin)}:0`,
          confirmedBy: null,
          createdAt: expect.any(String),
        });
        expect(byTarget.get(PRICE_DROP)).toEqual({
          ...common(PRICE_DROP),
          field: 'price',
          rule: { field: 'price', op: 'dropsBy', value: 10 },
          previous: priceBefore,
          current: priceAfter,
          changePercent: percentChange(priceBefore, priceAfter),
        });
        expect(byTarget.get(STOCK_OUT)).toEqual({
          ...common(STOCK_OUT),
          field: 'inStock',
          rule: { field: 'inStock', op: 'becomesUnavailable' },
          previous: true,
          current: false,
          changePercent: null,
        });
        expect(byTarget.get(NEW_SELLER)).toEqual({
          ...common(NEW_SELLER),
          field: 'buyBoxSeller',
          rule: { field: 'buyBoxSeller', op: 'sellerChanges' },
          previous: baseline.get(NEW_SELLER)?.values.buyBoxSeller,
          current: SELLER,
          changePercent: null,
        });
        const ranked = await eventsOf(search);
        expect(ranked.total).toBe(1);
        expect(ranked.events[0]).toEqual({
          id: expect.stringMatching(/^mev_/),
          type: 'monitor.triggered',
          monitorId: search.id,
          projectId,
          organizationId: search.organizationId,
          target: KEYWORD,
          subject: { kind: 'rank', marketplace: 'amazon.com', keyword: KEYWORD, asin: climber.asin },
          field: 'organicRank',
          rule: { field: 'organicRank', op: 'entersTop', value: TOP },
          previous: climber.rank,
          current: 1,
          changePercent: percentChange(climber.rank, 1),
          previousObservedAt: ranks.points[0]?.to,
          observedAt: ranks.points[1]?.from,
          jobId: secondSearch.id,
          resultId: expect.stringMatching(new RegExp(`^${secondSearch.id}:0:\\d+$`)),
          confirmedBy: null,
          createdAt: expect.any(String),
        });

        // One signed delivery per event, carrying the event as listed and absolute links.
        const all = [...listed.events, ...ranked.events];
        const received = await deliveries(all.length);
        expect(received).toHaveLength(all.length);
        expect(receiver.rejected).toEqual([]);
        expect(new Set(received.map(({ headers }) => headers['webhook-id'])).size).toBe(all.length);
        for (const event of all) {
          const delivery = received.find(({ event: body }) => body.data.monitorEvent.id === event.id);
          expect(delivery, `a delivery of ${event.target} ${event.field}`).toBeDefined();
          const body = delivery?.event;
          expect(delivery?.headers['webhook-id']).toBe(body?.id);
          expect(body?.id).toMatch(/^evt_/);
          expect(body?.type).toBe('monitor.triggered');
          expect(body?.data).toEqual({
            monitorEvent: event,
            links: {
              monitor: `${url()}/monitors/${event.monitorId}`,
              monitorEvents: `${url()}/monitors/${event.monitorId}/events`,
              job: `${url()}/jobs/${event.jobId}`,
              results: `${url()}/jobs/${event.jobId}/results`,
            },
          });
        }
        // The links lead where they say, for the endpoint's owner.
        const link = received[0]?.event.data.links.monitorEvents as string;
        const followed = await call(link, 'GET', '', { token });
        expect(followed.status).toBe(200);
        expect(followed.body.meta.total).toBeGreaterThanOrEqual(1);
        // The delivery log agrees: one delivered entry per event.
        await vi.waitFor(async () => {
          const log = await api<WebhookDelivery[]>('GET', `/webhooks/${endpointId}/deliveries?limit=100`);
          expect(log.data.map((d) => [d.eventType, d.status])).toEqual(all.map(() => ['monitor.triggered', 'delivered']));
        }, WAIT);

        const monitor = (await api<Monitor>('GET', `/monitors/${details.id}`)).data;
        expect(monitor).toMatchObject({ lastJobId: secondRun.id, lastTriggeredAt: expect.any(String), credits: { used: 16 } });
      }),
    150_000,
  );

  it(
    'a blocked page fires nothing and leaves history as it was; the same drop fires once the page reads again',
    () =>
      explained(async () => {
        const before = await history(UNCHANGED);
        const priceBefore = baseline.get(UNCHANGED)?.values.price as number;
        const priceAfter = lowered(priceBefore, 30);
        await control(sim, 'POST', `/products/${UNCHANGED}`, { price: priceAfter });
        // The product's page answers the captcha page on every request.
        sim.setFaults({ rules: [{ asin: UNCHANGED, fault: 'captcha' }] });

        const blocked = await run(details);
        const target = blocked.targets.find((t) => t.value === UNCHANGED);
        expect(target).toMatchObject({ status: 'failed', reason: 'blocked', blockKind: 'captcha' });
        expect(sim.stats().faults.captcha).toBeGreaterThanOrEqual(1);
        // The other products read as before (one more check each), nothing changed, nothing fired.
        expect(blocked.targets.filter((t) => t.value !== UNCHANGED).map((t) => t.status)).toEqual(['success', 'success', 'success']);
        expect((await eventsOf(details)).total).toBe(3);
        expect(await history(UNCHANGED)).toEqual(before);
        expect(await latest(UNCHANGED)).toMatchObject({ checks: 2, values: { price: priceBefore } });
        expect((await history(PRICE_DROP)).points.map((p) => p.checks)).toEqual([1, 2]);

        // The page reads again: the drop the blocked page hid fires now, against the last price seen.
        sim.setFaults({});
        const readable = await run(details);
        expect(readable.targets.map((t) => t.status)).toEqual(['success', 'success', 'success', 'success']);
        const listed = await eventsOf(details);
        expect(listed.total).toBe(4);
        const drop = listed.events[0];
        expect(drop).toMatchObject({
          target: UNCHANGED,
          field: 'price',
          rule: { field: 'price', op: 'dropsBy', value: 10 },
          previous: priceBefore,
          current: priceAfter,
          changePercent: percentChange(priceBefore, priceAfter),
          jobId: readable.id,
          previousObservedAt: before.points[0]?.to,
        });
        const points = (await history(UNCHANGED)).points;
        expect(points.map((p) => [p.checks, p.values.price])).toEqual([
          [2, priceBefore],
          [1, priceAfter],
        ]);

        // Five events in all (four details, one search), each delivered once, signed; none for the blocked run.
        const received = await deliveries(5);
        expect(received.map(({ event }) => event.data.monitorEvent.id).sort()).toEqual(
          [...listed.events, ...(await eventsOf(search)).events].map((event) => event.id).sort(),
        );
        expect(received.find(({ event }) => event.data.monitorEvent.jobId === blocked.id)).toBeUndefined();
        expect(receiver.rejected).toEqual([]);
      }),
    150_000,
  );

  it(
    'a page shown for another delivery location fires nothing and writes no history; once the location holds, the drop fires',
    () =>
      explained(async () => {
        const created = await api<Monitor>('POST', `/projects/${projectId}/monitors`, {
          name: 'Desk gear in New York',
          type: 'details',
          targets: [AT_ZIP],
          domain: 'amazon.com',
          deliveryZip: ZIP,
          cron: '0 0 1 1 *',
          watch: ['price'],
          rules: [{ field: 'price', op: 'dropsBy', value: 10 }],
        });
        expect(created.status, JSON.stringify(created.data)).toBe(201);
        const atZip = created.data;
        const historyAtZip = async () => (await api<ProductHistory>('GET', `/products/${AT_ZIP}/history?zip=${ZIP}`)).data;

        const first = await run(atZip);
        expect(first.targets[0]).toMatchObject({ status: 'success', charged: true });
        const before = await historyAtZip();
        expect(before.subject).toEqual({ marketplace: 'amazon.com', asin: AT_ZIP, zip: ZIP });
        expect(before.points).toHaveLength(1);
        const priceBefore = before.points[0]?.values.price as number;
        expect(priceBefore).toEqual(expect.any(Number));

        // The location widget fails: the page shows the storefront's country, not the postal code asked for.
        const priceAfter = lowered(priceBefore, 25);
        await control(sim, 'POST', `/products/${AT_ZIP}`, { price: priceAfter });
        sim.setFaults({ rules: [{ path: ADDRESS_CHANGE_PATH, fault: '503' }] });
        const elsewhere = await run(atZip);
        expect(elsewhere.targets[0]).toMatchObject({ status: 'success', charged: false, uncharged: 'location_unverified' });
        const results = await call(url(), 'GET', `/jobs/${elsewhere.id}/results`, { token });
        expect(results.body.data.items[0]).toMatchObject({ asin: AT_ZIP, price: { amount: priceAfter }, location: { requested: ZIP, verified: false } });
        expect((await eventsOf(atZip)).total).toBe(0);
        expect(await historyAtZip()).toEqual(before);
        // Nor is it written as the product without a location.
        expect((await call(url(), 'GET', `/products/${AT_ZIP}`, { token })).status).toBe(404);

        sim.setFaults({});
        const located = await run(atZip);
        expect(located.targets[0]).toMatchObject({ status: 'success', charged: true });
        const listed = await eventsOf(atZip);
        expect(listed.total).toBe(1);
        expect(listed.events[0]).toMatchObject({
          target: AT_ZIP,
          subject: { kind: 'product', marketplace: 'amazon.com', asin: AT_ZIP, zip: ZIP },
          field: 'price',
          previous: priceBefore,
          current: priceAfter,
          jobId: located.id,
        });
        expect((await historyAtZip()).points.map((p) => [p.checks, p.values.price])).toEqual([
          [1, priceBefore],
          [1, priceAfter],
        ]);
        const received = await deliveries(6);
        expect(received.filter(({ event }) => event.data.monitorEvent.monitorId === atZip.id).map(({ event }) => event.data.monitorEvent)).toEqual(
          listed.events,
        );
        expect(receiver.rejected).toEqual([]);
      }),
    150_000,
  );
});
