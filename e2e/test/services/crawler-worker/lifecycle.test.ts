import { SERVICE_NAMES } from '@crawl/contracts';
import { createSimulator, SPECIAL_ASINS, WELL_KNOWN_ASINS, type Simulator } from '@crawl/marketplace-simulator';
import { registerAdmin, startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** How long a crawl may take to reach a state (polled, no fixed sleeps). */
const POLL = { timeout: 20_000, interval: 25 };

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

describe('crawl lifecycle through the public API against the marketplace simulator', () => {
  let sim: Simulator;
  let svc: TestService;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
    svc = await startTestService({
      targets: [...SERVICE_NAMES],
      env: {
        MARKETPLACE_BASE_URL: sim.url,
        MARKETPLACE_EXTRA_HOSTS: sim.host,
        UPSTREAM_RATE_PER_MINUTE: '60000',
        UPSTREAM_BURST: '50',
        CRAWL_CONCURRENCY: '4',
        FETCH_BACKOFF_MS: '20',
        FETCH_MAX_BACKOFF_MS: '3000',
        SHUTDOWN_GRACE_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await sim?.close();
  });

  async function newProject(): Promise<{ user: TestUser; projectId: string }> {
    const user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'crawl' } });
    expect(project.status).toBe(201);
    return { user, projectId: project.body.data.id };
  }

  async function createJob(user: TestUser, projectId: string, body: unknown) {
    const res = await svc.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: user.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; creditsReserved: number };
  }

  const getJob = async (user: TestUser, id: string) => (await svc.request({ method: 'GET', url: `/jobs/${id}`, token: user.token })).body.data;
  const finished = (user: TestUser, id: string) =>
    vi.waitFor(async () => {
      const job = await getJob(user, id);
      expect(TERMINAL.has(job?.status), JSON.stringify(job)).toBe(true);
      return job;
    }, POLL);
  const credits = async (user: TestUser) =>
    (await svc.request({ method: 'GET', url: '/usage', token: user.token })).body.data.credits as { available: number; reserved: number };

  it('completes a search job with real-looking items, readable as results and as CSV export', async () => {
    const { user, projectId } = await newProject();
    const before = await credits(user);
    const created = await createJob(user, projectId, { type: 'search', targets: ['wireless headphones', 'laptop'] });
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    expect(job.startedAt).toBeDefined();
    expect(job.completedAt).toBeDefined();
    expect(job.targets.map((t: { status: string }) => t.status)).toEqual(['success', 'success']);
    expect(job.resultCount).toBeGreaterThan(5);

    const results = await svc.request({ method: 'GET', url: `/jobs/${created.id}/results?pageSize=200`, token: user.token });
    expect(results.status).toBe(200);
    const items = results.body.data.items as Array<Record<string, any>>;
    expect(results.body.data.pagination.total).toBe(job.resultCount);
    expect(items.length).toBe(job.resultCount);
    const organic = items.filter((i) => !i.sponsored);
    expect(organic.length).toBeGreaterThan(0);
    for (const item of organic) {
      expect(item.asin).toMatch(/^[A-Z0-9]{10}$/);
      expect(typeof item.title).toBe('string');
      expect(item.title.length).toBeGreaterThan(3);
      expect(Number.isInteger(item.rank)).toBe(true);
    }
    const priced = organic.filter((i) => i.price);
    expect(priced.length).toBeGreaterThan(0);
    expect(priced[0]?.price).toMatchObject({ amount: expect.any(Number), currency: 'USD' });
    const ranks = organic.filter((i) => i.keyword === 'laptop').map((i) => i.rank);
    expect(ranks).toEqual(ranks.map((_, index) => index + 1));

    const csv = await svc.request({ method: 'GET', url: `/jobs/${created.id}/export?format=csv`, token: user.token });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-disposition'])).toMatch(/^attachment/);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toContain('asin');
    expect(lines.length).toBe(job.resultCount + 1);

    const after = await credits(user);
    expect(after.reserved).toBe(before.reserved);
    expect(after.available).toBe(before.available - 10);
  });

  it('follows config.pages (up to the page count) and stops early when there is no next page', async () => {
    const { user, projectId } = await newProject();
    const created = await createJob(user, projectId, { type: 'search', targets: ['usb cable'], config: { pages: 2 } });
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    const items = (await svc.request({ method: 'GET', url: `/jobs/${created.id}/results?pageSize=200`, token: user.token })).body.data.items as Array<
      Record<string, any>
    >;
    expect(new Set(items.map((i) => i.page))).toEqual(new Set([1, 2]));
    expect(new Set(items.map((i) => i.asin)).size).toBe(items.length);
  });

  it('completes a details job given ASINs and product URLs (crawled on the configured marketplace)', async () => {
    const { user, projectId } = await newProject();
    const [a, b, c] = WELL_KNOWN_ASINS as [string, string, string];
    const created = await createJob(user, projectId, {
      type: 'details',
      targets: [a, `https://www.amazon.de/Some-Thing/dp/${b}/ref=sr_1_1`, `${sim.url}/dp/${c}`],
    });
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    const items = (await svc.request({ method: 'GET', url: `/jobs/${created.id}/results`, token: user.token })).body.data.items as Array<Record<string, any>>;
    expect(items.map((i) => i.asin).sort()).toEqual([a, b, c].sort());
    for (const item of items) {
      expect(item.title.length).toBeGreaterThan(3);
      expect(item.price).toMatchObject({ amount: expect.any(Number), currency: 'USD' });
    }
    // Only the simulator was asked, by ASIN: never amazon.de, never the URL as given.
    expect(sim.stats().byPath[`/dp/${b}`]).toBeGreaterThanOrEqual(1);
    const json = await svc.request({ method: 'GET', url: `/jobs/${created.id}/export?format=json`, token: user.token });
    expect(json.status).toBe(200);
    expect(String(json.headers['content-disposition'])).toMatch(/^attachment/);
  });

  it('retries transient upstream failures (503, 429 with Retry-After, reset) and succeeds', async () => {
    const { user, projectId } = await newProject();
    const created = await createJob(user, projectId, { type: 'details', targets: [SPECIAL_ASINS.flaky, SPECIAL_ASINS.throttled, SPECIAL_ASINS.reset] });
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    expect(job.targets.map((t: { status: string }) => t.status)).toEqual(['success', 'success', 'success']);
    for (const asin of [SPECIAL_ASINS.flaky, SPECIAL_ASINS.throttled, SPECIAL_ASINS.reset]) expect(sim.stats().byPath[`/dp/${asin}`]).toBe(2);
  });

  it('fails unknown products as not_found without retrying', async () => {
    const { user, projectId } = await newProject();
    const created = await createJob(user, projectId, { type: 'details', targets: ['B0NOTFOUND', WELL_KNOWN_ASINS[5] as string] });
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    expect(job.targets[0]).toMatchObject({ status: 'failed', reason: 'not_found' });
    expect(job.targets[1]).toMatchObject({ status: 'success' });
    expect(sim.stats().byPath['/dp/B0NOTFOUND']).toBe(1);
  });

  it('completes a job with some blocked targets: those fail as blocked and are refunded', async () => {
    const { user, projectId } = await newProject();
    const before = await credits(user);
    const created = await createJob(user, projectId, { type: 'search', targets: ['desk lamp', 'blocked lamp', 'robotcheck lamp'] });
    expect(created.creditsReserved).toBe(15);
    const job = await finished(user, created.id);
    expect(job.status).toBe('completed');
    expect(job.targets[0]).toMatchObject({ status: 'success' });
    expect(job.targets[1]).toMatchObject({ status: 'failed', reason: 'blocked' });
    expect(job.targets[2]).toMatchObject({ status: 'failed', reason: 'blocked' });
    // Block pages are retried up to the attempt limit (4 by default), never parsed as empty results.
    expect(sim.stats().byPath['/s?k=blocked+lamp']).toBe(4);
    const items = (await svc.request({ method: 'GET', url: `/jobs/${created.id}/results?pageSize=200`, token: user.token })).body.data.items as Array<
      Record<string, any>
    >;
    expect(items.every((i) => i.keyword === 'desk lamp')).toBe(true);
    await expect.poll(() => credits(user), POLL).toMatchObject({ reserved: before.reserved });
    expect((await credits(user)).available).toBe(before.available - 5);
  });

  it('fails a job whose targets are all blocked and refunds it fully', async () => {
    const { user, projectId } = await newProject();
    const before = await credits(user);
    const created = await createJob(user, projectId, { type: 'details', targets: [SPECIAL_ASINS.blocked] });
    const job = await finished(user, created.id);
    expect(job.status).toBe('failed');
    expect(job.targets[0]).toMatchObject({ status: 'failed', reason: 'blocked' });
    expect(job.completedAt).toBeDefined();
    await expect.poll(() => credits(user), POLL).toMatchObject({ reserved: before.reserved });
    expect((await credits(user)).available).toBe(before.available);
  });

  it('stops a cancelled job mid-run and refunds the targets it did not finish', async () => {
    const { user, projectId } = await newProject();
    const before = await credits(user);
    sim.setFaults({ rules: [{ keyword: 'snail', fault: 'slow:400' }] });
    try {
      const targets = Array.from({ length: 12 }, (_, i) => `snail ${i}`);
      const created = await createJob(user, projectId, { type: 'search', targets });
      await expect.poll(() => getJob(user, created.id), POLL).toMatchObject({ status: 'running' });
      const cancel = await svc.request({ method: 'POST', url: `/jobs/${created.id}/cancel`, token: user.token });
      expect(cancel.status).toBe(200);
      expect(cancel.body.data.status).toBe('cancelled');
      // Wait until the worker has drained whatever was in flight.
      await expect
        .poll(async () => (await svc.request({ method: 'GET', url: '/admin/queue/stats', token: (await admin()).token })).body.data, POLL)
        .toMatchObject({ active: 0, waiting: 0, delayed: 0 });
      const job = await getJob(user, created.id);
      expect(job.status).toBe('cancelled');
      const succeeded = job.targets.filter((t: { status: string }) => t.status === 'success').length;
      const cancelled = job.targets.filter((t: { status: string }) => t.status === 'cancelled').length;
      expect(cancelled).toBeGreaterThan(0);
      expect(succeeded + cancelled).toBe(targets.length);
      // Cancelled targets were not fetched afterwards: at most the ones in flight at cancel time.
      const fetched = Object.keys(sim.stats().byPath).filter((path) => path.includes('snail')).length;
      expect(fetched).toBeLessThan(targets.length);
      await expect.poll(() => credits(user), POLL).toMatchObject({ reserved: before.reserved });
      expect((await credits(user)).available).toBe(before.available - 5 * succeeded);
    } finally {
      sim.setFaults({});
    }
  });

  let adminUser: TestUser | undefined;
  const admin = async () => (adminUser ??= await registerAdmin(svc, { email: 'ops@example.com' }));
});
