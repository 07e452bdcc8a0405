import { SERVICE_NAMES } from '@crawl/contracts';
import { registerAdmin, startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { CrawlerSettingsClient } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const OPS_EMAIL = 'ops@example.com';

describe("billing's crawler admin: upstream rate and queue statistics", () => {
  let svc: TestService;
  let ops: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    svc = await startTestService({
      env: { UPSTREAM_RATE_PER_MINUTE: '600', UPSTREAM_BURST: '5', RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000' },
    });
    ops = await registerAdmin(svc, { email: OPS_EMAIL });
    user = await svc.registerUser();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('are billing routes in the public table, and the crawler-worker owns none', async () => {
    const { PUBLIC_ROUTES } = await import('@crawl/contracts');
    const owned = (url: string) => PUBLIC_ROUTES.filter((route) => route.url === url).map((route) => [route.method, route.owner, route.access]);
    expect(owned('/admin/crawler/rate')).toEqual([
      ['GET', 'billing', 'admin'],
      ['PUT', 'billing', 'admin'],
    ]);
    expect(owned('/admin/queue/stats')).toEqual([['GET', 'billing', 'admin']]);
    expect(PUBLIC_ROUTES.filter((route) => route.owner === 'crawler-worker')).toEqual([]);
    expect(SERVICE_NAMES).toContain('crawler-worker');
  });

  it('are for admins only', async () => {
    expect((await svc.request({ method: 'GET', url: '/admin/crawler/rate' })).status).toBe(401);
    expect((await svc.request({ method: 'PUT', url: '/admin/crawler/rate', body: { requestsPerMinute: 1 } })).status).toBe(401);
    expect((await svc.request({ method: 'GET', url: '/admin/queue/stats' })).status).toBe(401);
    expect((await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: user.token })).status).toBe(403);
    expect((await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: user.token, body: { requestsPerMinute: 1 } })).status).toBe(403);
    expect((await svc.request({ method: 'GET', url: '/admin/queue/stats', token: user.token })).status).toBe(403);
    // The workers' read is internal: not reachable with a user or admin token.
    expect((await svc.request({ method: 'GET', url: '/internal/billing/crawler-settings', token: ops.token })).status).toBeGreaterThanOrEqual(401);
  });

  it('stores the admin-set rate (1–60000), audits the change and serves it to the workers', async () => {
    const settings = new CrawlerSettingsClient(svc.context('catalog').client('billing'));
    expect(await settings.get()).toEqual({});
    const read = await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: ops.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      requestsPerMinute: 600,
      burst: 5,
      source: 'default',
      perIdentity: true,
      capacityPerMinute: 600,
      // No crawler-worker runs here: no identity was reported.
      identities: [],
    });

    for (const requestsPerMinute of [0, 60_001, 1.5, 'fast']) {
      const invalid = await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute } });
      expect(invalid.status, String(requestsPerMinute)).toBe(400);
      expect(invalid.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 1, extra: true } })).status).toBe(400);

    const set = await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 30_000 } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ requestsPerMinute: 30_000, burst: 5, source: 'admin', updatedAt: expect.any(String), perIdentity: true });
    expect(set.body.data.identities).toEqual([]);
    expect((await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: ops.token })).body.data).toEqual(set.body.data);
    expect(await settings.get()).toEqual({ requestsPerMinute: 30_000, updatedAt: set.body.data.updatedAt });

    expect((await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 60_000 } })).status).toBe(200);
    expect((await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 1 } })).status).toBe(200);
    expect((await settings.get()).requestsPerMinute).toBe(1);

    const audit = await svc.request({ method: 'GET', url: '/audit?action=crawler.rate.update', token: ops.token });
    expect(audit.status).toBe(200);
    expect(audit.body.data[0]).toMatchObject({
      action: 'crawler.rate.update',
      resourceType: 'crawler',
      resourceId: 'upstream-rate',
      actorUserId: ops.userId,
      metadata: { from: 60_000, to: 1 },
    });
    expect(audit.body.data[1]).toMatchObject({ metadata: { from: 30_000, to: 60_000 } });
    expect(audit.body.data[2]).toMatchObject({ metadata: { from: 600, to: 30_000 } });
  });

  it('reads the crawl queue statistics', async () => {
    const stats = await svc.request({ method: 'GET', url: '/admin/queue/stats', token: ops.token });
    expect(stats.status).toBe(200);
    expect(stats.body.data).toEqual({
      queue: 'crawl-targets',
      backend: 'in-process',
      waiting: expect.any(Number),
      active: expect.any(Number),
      delayed: expect.any(Number),
      failed: expect.any(Number),
      completed: expect.any(Number),
      groups: expect.any(Number),
    });
  });
});

describe("billing's crawler admin: the rate is per egress identity", () => {
  const PROXIES = ['http://alice:pw-one@proxy-a.example:8080', 'http://bob:pw-two@proxy-b.example:8080'];
  let svc: TestService;
  let ops: TestUser;

  beforeAll(async () => {
    svc = await startTestService({
      targets: [...SERVICE_NAMES],
      env: {
        UPSTREAM_RATE_PER_MINUTE: '60',
        PROXY_URLS: PROXIES.join(','),
        MARKETPLACE_BASE_URL: 'http://127.0.0.1:9',
        RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000',
      },
    });
    ops = await registerAdmin(svc, { email: OPS_EMAIL });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('shows each proxy with its rate and cool-down, never its credentials, and capacity = rate × identities', async () => {
    const read = await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: ops.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      requestsPerMinute: 60,
      source: 'default',
      perIdentity: true,
      capacityPerMinute: 120,
      identitiesReportedAt: expect.any(String),
    });
    expect(read.body.data.identities).toEqual([
      {
        id: expect.stringMatching(/^proxy-[0-9a-f]{12}$/),
        label: 'http://***@proxy-a.example:8080',
        ratePerMinute: 60,
        cooledDownUntil: null,
        blockedRecently: 0,
      },
      {
        id: expect.stringMatching(/^proxy-[0-9a-f]{12}$/),
        label: 'http://***@proxy-b.example:8080',
        ratePerMinute: 60,
        cooledDownUntil: null,
        blockedRecently: 0,
      },
    ]);
    expect(JSON.stringify(read.body)).not.toMatch(/alice|bob|pw-one|pw-two/);

    const set = await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 90 } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ requestsPerMinute: 90, source: 'admin', capacityPerMinute: 180 });
    expect(set.body.data.identities.map((i: { ratePerMinute: number }) => i.ratePerMinute)).toEqual([90, 90]);
  });

  it('shows a cooled-down proxy as the workers report it, and leaves it out of the capacity', async () => {
    const { BillingPaths } = await import('@crawl/contracts');
    const billing = svc.context('crawler-worker').client('billing');
    const until = new Date(Date.now() + 600_000).toISOString();
    await billing.call({
      method: 'PUT',
      path: BillingPaths.crawlerIdentities,
      body: {
        identities: [
          { id: 'proxy-aaaaaaaaaaaa', label: 'http://***@proxy-a.example:8080', cooledDownUntil: until, blockedRecently: 4 },
          { id: 'proxy-bbbbbbbbbbbb', label: 'http://***@proxy-b.example:8080', blockedRecently: 0 },
        ],
      },
    });
    const read = await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: ops.token });
    expect(read.body.data.capacityPerMinute).toBe(read.body.data.requestsPerMinute);
    expect(read.body.data.identities[0]).toMatchObject({ id: 'proxy-aaaaaaaaaaaa', cooledDownUntil: until, blockedRecently: 4 });
    expect(read.body.data.identities[1]).toMatchObject({ cooledDownUntil: null });
    // A report that is not of the expected shape is refused, in the error envelope.
    await expect(billing.call({ method: 'PUT', path: BillingPaths.crawlerIdentities, body: { identities: [{ id: '' }] } })).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe("billing's crawler admin throttles", () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000,register-ip=100000,admin-crawler=2,admin-api=3' } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('limits the rate routes by admin-crawler (60/min by default) and queue stats by admin-api', async () => {
    const { CRAWLER_ADMIN_LIMIT, BillingRoutes } = await import('@crawl/contracts');
    expect(CRAWLER_ADMIN_LIMIT).toMatchObject({ name: 'admin-crawler', max: 60, timeWindowMs: 60_000 });
    expect(BillingRoutes.getCrawlerRate.rateLimits?.map((p) => p.name)).toEqual(['admin-crawler']);
    expect(BillingRoutes.setCrawlerRate.rateLimits?.map((p) => p.name)).toEqual(['admin-crawler']);
    expect(BillingRoutes.queueStats.rateLimits?.map((p) => p.name)).toEqual(['admin-api']);

    const ops = await registerAdmin(svc, { email: OPS_EMAIL });
    const rate: number[] = [];
    for (let i = 0; i < 3; i += 1) rate.push((await svc.request({ method: 'GET', url: '/admin/crawler/rate', token: ops.token })).status);
    expect(rate).toEqual([200, 200, 429]);
    const stats: number[] = [];
    for (let i = 0; i < 4; i += 1) stats.push((await svc.request({ method: 'GET', url: '/admin/queue/stats', token: ops.token })).status);
    expect(stats).toEqual([200, 200, 200, 429]);
  });
});
