import { randomUUID } from 'node:crypto';
import { crawlQueueDefinition } from '@crawl/contracts';
import { closeRedis, openRedis } from '@crawl/redis';
import { privateRedis } from '@crawl/redis/testing';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';

/** The default settings notice a loss within one check interval (5 s); the bound is 15 s. */
const WITHIN = { timeout: 15_000, interval: 100 };

const found = await privateRedis();

describe('a lost crawl queue (Redis flushed or restarted without persistence)', () => {
  if (!('redis' in found)) {
    it('needs a redis-server binary', (context) => {
      // Only off CI: privateRedis throws when CI=true and no redis-server can be started.
      console.warn(`[queue loss test skipped] ${found.skipReason}`);
      context.skip(found.skipReason);
    });
    return;
  }
  const { redis } = found;
  let svc: TestService | undefined;
  afterAll(async () => {
    await svc?.close().catch(() => undefined);
    await redis.kill();
  });

  it('re-enqueues the open targets within seconds, with default settings, and /health is 503 while Redis is gone', async () => {
    svc = await startTestService({ env: { REDIS_URL: redis.url, REDIS_PREFIX: `q${randomUUID().slice(0, 6)}` } });
    const user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'loss' } });
    const created = await svc.request({
      method: 'POST',
      url: `/projects/${project.body.data.id}/jobs`,
      token: user.token,
      body: { type: 'search', targets: ['a', 'b', 'c'] },
    });
    expect(created.status).toBe(201);
    const queue = svc.context('catalog').queues.queue(crawlQueueDefinition());
    const queued = async () => {
      try {
        return (await queue.stats()).waiting;
      } catch {
        return -1;
      }
    };
    expect(await queued()).toBe(3);

    const admin = openRedis(redis.url);
    await admin.flushall();
    await closeRedis(admin);
    expect(await queued()).toBe(0);
    await vi.waitUntil(async () => (await queued()) === 3, { ...WITHIN, message: 'the targets to be enqueued again after FLUSHALL' });

    await redis.kill();
    const sick = await svc.request({ method: 'GET', url: '/health' });
    expect(sick.status).toBe(503);
    expect(sick.body.error.redis.status).toBe('down');
    await redis.start();
    await vi.waitUntil(async () => (await queued()) === 3, { ...WITHIN, timeout: 25_000, message: 'the targets to be enqueued again after an empty restart' });
    expect((await svc.request({ method: 'GET', url: '/health' })).status).toBe(200);
    const job = await svc.request({ method: 'GET', url: `/jobs/${created.body.data.id}`, token: user.token });
    expect(job.body.data.status).toBe('queued');
  });
});
