import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { disposableMongo } from './disposable-mongo.ts';

const found = await disposableMongo();

if ('mongo' in found) {
  const { mongo } = found;
  describe('GET /health with MONGO_URL', () => {
    let svc: TestService | undefined;
    afterAll(async () => {
      await svc?.close().catch(() => undefined);
    });

    it('pings the database for real: up while it answers, 503 and an envelope-503 on requests once it is gone', async () => {
      svc = await startTestService({ env: { MONGO_URL: mongo.url, MONGO_DB_PREFIX: `h${randomUUID().slice(0, 6)}_` } });
      const healthy = await svc.request({ method: 'GET', url: '/health' });
      expect(healthy.status).toBe(200);
      expect(healthy.body).toEqual({
        status: 'ok',
        info: { api: { status: 'up' }, mongo: { status: 'up' } },
        error: {},
        details: { api: { status: 'up' }, mongo: { status: 'up' } },
      });
      const user = await svc.registerUser();

      await mongo.kill();
      const sick = await svc.request({ method: 'GET', url: '/health' });
      expect(sick.status).toBe(503);
      expect(sick.body.status).toBe('error');
      expect(sick.body.info).toEqual({ api: { status: 'up' } });
      expect(sick.body.error.mongo).toEqual({ status: 'down', message: expect.any(String) });
      expect(sick.body.details.mongo.status).toBe('down');
      // Liveness ignores dependencies: an outage must not get the process restarted.
      expect((await svc.request({ method: 'GET', url: '/live' })).status).toBe(200);
      expect((await svc.request({ method: 'GET', url: '/ready' })).status).toBe(503);

      const started = Date.now();
      const login = await svc.request({ method: 'POST', url: '/auth/login', body: { email: user.email, password: user.password } });
      expect(login.status).toBe(503);
      expect(login.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: [] } });
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
} else {
  describe('GET /health with MONGO_URL', () => {
    it('needs a disposable MongoDB-wire server', (context) => {
      console.warn(`[health mongo test skipped] ${found.skipReason}`);
      context.skip(found.skipReason);
    });
  });
}
