import { SERVICE_NAMES } from '@crawl/contracts';
import { registerAdmin, startTestService, type TestService } from '@crawl/server/testing';
import { CrawlerSettingsClient } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateSetting } from '@crawl/crawler-worker/rate-limit/rate-setting';
import { TokenBucketRateLimiter } from '@crawl/crawler-worker/rate-limit/token-bucket-rate-limiter';

describe("the worker's upstream rate follows the admin-set rate stored by billing", () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({
      targets: [...SERVICE_NAMES],
      env: { UPSTREAM_RATE_PER_MINUTE: '120', MARKETPLACE_BASE_URL: 'http://127.0.0.1:9' },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('applies a rate set through PUT /admin/crawler/rate on the next refresh, the default without one, and keeps the rate during a billing outage', async () => {
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 120, burst: 1 });
    const client = new CrawlerSettingsClient(svc.context('crawler-worker').client('billing'));
    let billingDown = false;
    const rate = new RateSetting({
      read: () => (billingDown ? Promise.reject(new Error('billing unreachable')) : client.get()),
      limiter,
      defaultRate: 120,
    });
    try {
      expect(await rate.refresh()).toBe(120);
      expect(limiter.rate()).toBe(120);

      const ops = await registerAdmin(svc, { email: 'ops@example.com' });
      const set = await svc.request({ method: 'PUT', url: '/admin/crawler/rate', token: ops.token, body: { requestsPerMinute: 4_000 } });
      expect(set.status).toBe(200);
      expect(limiter.rate()).toBe(120);
      await expect
        .poll(
          async () => {
            await rate.refresh();
            return limiter.rate();
          },
          { timeout: 10_000, interval: 25 },
        )
        .toBe(4_000);

      billingDown = true;
      await expect(rate.refresh()).rejects.toThrow('billing unreachable');
      expect(limiter.rate()).toBe(4_000);
    } finally {
      limiter.close();
    }
  });

  it('declares billing as a dependency of the worker (BILLING_URL when billing runs elsewhere)', async () => {
    const { crawlerWorkerModule } = await import('@crawl/crawler-worker');
    expect(crawlerWorkerModule.dependencies).toEqual(['catalog', 'billing']);
  });
});
