import { randomUUID } from 'node:crypto';
import { redisTestServer } from '@crawl/redis/testing';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it } from 'vitest';

const found = await redisTestServer();

if ('server' in found) {
  const { server } = found;
  describe('gateway throttles with REDIS_URL', () => {
    const services: TestService[] = [];
    const prefixes: string[] = [];
    afterAll(async () => {
      await Promise.all(services.map((s) => s.close()));
      const cleaner = openRedis(server.url);
      for (const prefix of prefixes) await deleteKeys(cleaner, `${prefix}:*`);
      await closeRedis(cleaner);
      await server.stop();
    });
    const prefix = () => {
      const created = `gw${randomUUID().slice(0, 8)}`;
      prefixes.push(created);
      return created;
    };

    it('two gateway replicas share one counter per client', async () => {
      const env = { REDIS_URL: server.url, REDIS_PREFIX: prefix(), RATE_LIMIT_OVERRIDES: 'auth-ip=4,auth-ip-email=100000' };
      const one = await startTestService({ env });
      services.push(one);
      const two = await startTestService({ env });
      services.push(two);
      const login = (svc: TestService) =>
        svc.request({ method: 'POST', url: '/auth/login', body: { email: 'nobody@example.com', password: 'wrong-password-123' } });
      const statuses: number[] = [];
      for (const svc of [one, two, one, two]) statuses.push((await login(svc)).status);
      expect(statuses.every((status) => status !== 429)).toBe(true);
      // Four requests spent the shared budget of four, whichever replica served them.
      const limitedOnOne = await login(one);
      const limitedOnTwo = await login(two);
      expect(limitedOnOne.status).toBe(429);
      expect(limitedOnTwo.status).toBe(429);
      expect(limitedOnTwo.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(limitedOnTwo.headers['retry-after'])).toBeGreaterThan(0);

      // A process on another namespace has its own counters.
      const other = await startTestService({ env: { ...env, REDIS_PREFIX: prefix() } });
      services.push(other);
      expect((await login(other)).status).not.toBe(429);
    });
  });
} else {
  describe('gateway throttles with REDIS_URL', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[gateway redis throttle tests skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
