import { searchRecord } from '@crawl/catalog/testing/result-records';
import { CatalogPaths, REGISTER_IP_LIMIT } from '@crawl/contracts';
import { startTestService, TEST_PASSWORD, type TestService } from '@crawl/server/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue: a second self-made account registered with the first one's code, one 5-credit job, and
// the first organization gained 500 credits; 30 registrations per minute per address were allowed.
describe('referral farming', () => {
  let svc: TestService;
  beforeAll(async () => {
    // The default registration throttle (register-ip) applies; only the login throttles are lifted.
    svc = await startTestService({ env: { RATE_LIMIT_OVERRIDES: 'auth-ip=100000,auth-ip-email=100000' } });
  });
  afterAll(async () => svc?.close());

  async function register(remoteAddress: string, referralCode?: string) {
    const email = `farm-${randomUUID().slice(0, 8)}@example.com`;
    const res = await svc.app.inject({
      method: 'POST',
      url: '/auth/register',
      remoteAddress,
      payload: { email, password: TEST_PASSWORD, ...(referralCode ? { referralCode } : {}) },
    });
    return { status: res.statusCode, headers: res.headers, body: res.json(), email };
  }
  const available = async (token: string) => (await svc.request({ method: 'GET', url: '/usage', token })).body.data.credits.available as number;

  it('pays the referrer nothing for a referred account that only spends its signup credits, and pays once it buys a paid package', async () => {
    const referrer = await register('10.7.0.1');
    expect(referrer.status).toBe(201);
    const code = (await svc.request({ method: 'GET', url: '/referral/code', token: referrer.body.accessToken })).body.data.code;
    const farmed = await register('10.7.0.1', code);
    expect(farmed.status).toBe(201);
    const token = farmed.body.accessToken as string;

    // One 5-credit job that succeeds, the way the worker reports it.
    const project = (await svc.request({ method: 'POST', url: '/projects', token, body: { name: 'farm' } })).body.data;
    const job = (await svc.request({ method: 'POST', url: `/projects/${project.id}/jobs`, token, body: { type: 'search', targets: ['usb cable'] } })).body.data;
    const worker = svc.internalHeaders('crawler-worker');
    await svc.request({ method: 'POST', url: CatalogPaths.claimTarget(job.id, 0), headers: worker, body: {} });
    const reported = await svc.request({
      method: 'POST',
      url: CatalogPaths.reportTarget(job.id, 0),
      headers: worker,
      body: { status: 'success', items: [searchRecord({ keyword: 'usb cable' })] },
    });
    expect(reported.status).toBeLessThan(300);
    await expect.poll(async () => (await svc.request({ method: 'GET', url: `/jobs/${job.id}`, token })).body.data.status).toBe('completed');
    expect(await available(token)).toBe(995);
    expect(await available(referrer.body.accessToken)).toBe(1000);

    const dash = await svc.dashboardToken({ email: farmed.email, password: TEST_PASSWORD });
    const bought = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body: { packageId: 'starter' } });
    expect(bought.status).toBe(201);
    expect(await available(referrer.body.accessToken)).toBe(1500);
    expect((await svc.request({ method: 'GET', url: '/referral/stats', token: referrer.body.accessToken })).body.data).toMatchObject({ rewards: 1 });
  });

  it('allows five registrations per address per hour, then 429 with Retry-After; another address still registers', async () => {
    expect(REGISTER_IP_LIMIT).toMatchObject({ max: 5, timeWindowMs: 3_600_000, key: 'ip' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await register('10.7.1.1')).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const sixth = await register('10.7.1.1');
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), details: [] } });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3_000);
    expect((await register('10.7.1.2')).status).toBe(201);
  });
});
