import { randomUUID } from 'node:crypto';
import { freePort } from '@crawl/redis/testing';
import { mongoTestServer } from '@crawl/storage-mongo/test-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '@crawl/server/testing';

// In CI a missing server throws here (mongoTestServer): the skip below is for machines without one.
const found = await mongoTestServer();
afterAll(async () => {
  if ('server' in found) await found.server.stop();
});
// The other services run elsewhere; nothing here calls them.
const ELSEWHERE = { AUTH_URL: 'http://127.0.0.1:9', CATALOG_URL: 'http://127.0.0.1:9', BILLING_URL: 'http://127.0.0.1:9' };

// A gateway alone owns no data and opens no database, yet with MONGO_URL set it must still report
// the database it is configured with (the spec's `mongo` indicator).
describe('GET /health with MONGO_URL in a process whose modules own no data', () => {
  const running: TestService[] = [];
  afterEach(async () => {
    for (const svc of running.splice(0)) await svc.close();
  });
  const gatewayOn = async (url: string) => {
    const svc = await startTestService({ targets: ['gateway'], env: { MONGO_URL: url, MONGO_DB_PREFIX: `g${randomUUID().slice(0, 6)}_`, ...ELSEWHERE } });
    running.push(svc);
    return svc;
  };

  it('reports mongo down when the configured server does not answer', async () => {
    const svc = await gatewayOn(`mongodb://127.0.0.1:${await freePort()}/`);
    const health = await svc.request({ method: 'GET', url: '/health' });
    expect(health.status).toBe(503);
    expect(health.body.error.mongo).toEqual({ status: 'down', message: expect.any(String) });
    expect(svc.context('gateway')).not.toHaveProperty('store');
  });

  it.skipIf(!('server' in found))('reports mongo up when it answers', async () => {
    if (!('server' in found)) return;
    const svc = await gatewayOn(found.server.url);
    const health = await svc.request({ method: 'GET', url: '/health' });
    expect(health.status).toBe(200);
    expect(health.body.info).toEqual({ api: { status: 'up' }, mongo: { status: 'up' } });
  });
});
