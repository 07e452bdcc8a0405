import { randomUUID } from 'node:crypto';
import { privateRedis } from '@crawl/redis/testing';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it } from 'vitest';

const found = await privateRedis();

if ('redis' in found) {
  const { redis } = found;
  describe('GET /health with REDIS_URL', () => {
    let svc: TestService | undefined;
    afterAll(async () => {
      await svc?.close().catch(() => undefined);
      await redis.kill();
    });

    it('pings Redis for real: up while it answers, 503 once it is gone, and the process still closes promptly', async () => {
      svc = await startTestService({ env: { REDIS_URL: redis.url, REDIS_PREFIX: `h${randomUUID().slice(0, 6)}` } });
      expect(svc.context('catalog').queues.kind).toBe('bullmq');
      const healthy = await svc.request({ method: 'GET', url: '/health' });
      expect(healthy.status).toBe(200);
      expect(healthy.body).toEqual({
        status: 'ok',
        info: { api: { status: 'up' }, redis: { status: 'up' } },
        error: {},
        details: { api: { status: 'up' }, redis: { status: 'up' } },
      });
      expect((await svc.request({ method: 'GET', url: '/ready' })).status).toBe(200);

      await redis.kill();
      const sick = await svc.request({ method: 'GET', url: '/health' });
      expect(sick.status).toBe(503);
      expect(sick.body.info).toEqual({ api: { status: 'up' } });
      expect(sick.body.error.redis).toEqual({ status: 'down', message: expect.any(String) });
      expect((await svc.request({ method: 'GET', url: '/ready' })).status).toBe(503);

      const started = Date.now();
      await svc.close();
      svc = undefined;
      expect(Date.now() - started).toBeLessThan(8_000);
    });
  });
} else {
  describe('GET /health with REDIS_URL', () => {
    it('needs a redis-server binary', (context) => {
      console.warn(`[health redis test skipped] ${found.skipReason}`);
      context.skip(found.skipReason);
    });
  });
}
