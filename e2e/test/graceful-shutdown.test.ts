import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRAWL_QUEUE } from '@crawl/contracts';
import { BullMqQueueProvider } from '@crawl/queue-bullmq';
import { redisTestServer } from '@crawl/redis/testing';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { spawnService, type SpawnedService } from './spawn-service.ts';

const found = await redisTestServer();

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

if ('server' in found) {
  const { server } = found;
  describe('SIGTERM with work in flight (BullMQ on Redis)', () => {
    const prefix = `gs${randomUUID().slice(0, 8)}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'crawl-shutdown-'));
    const running: SpawnedService[] = [];
    afterAll(async () => {
      await Promise.all(running.map((s) => s.stop()));
      rmSync(dataDir, { recursive: true, force: true });
      const cleaner = openRedis(server.url);
      await deleteKeys(cleaner, `${prefix}:*`);
      await closeRedis(cleaner);
      await server.stop();
    });

    it('exits 0 within the grace period, hands unfinished targets back, and a new process finishes the job', async () => {
      const grace = 3_000;
      const env = { REDIS_URL: server.url, REDIS_PREFIX: prefix, MARKETPLACE: 'simulator', SHUTDOWN_GRACE_MS: String(grace), UPSTREAM_RATE_PER_MINUTE: '120' };
      const first = await spawnService({ dataDir, env });
      running.push(first);
      const registered = await call(first.url, 'POST', '/auth/register', {
        email: `gs-${randomUUID().slice(0, 8)}@example.com`,
        password: 'a-long-enough-password',
      });
      expect(registered.status).toBe(201);
      const token = registered.body.accessToken as string;
      const project = await call(first.url, 'POST', '/projects', { name: 'shutdown' }, token);
      expect(project.status).toBe(201);
      // Slow pages (300 ms each) at 2 requests per second: the job runs for several seconds.
      const targets = Array.from({ length: 8 }, (_, i) => `slowsearch lamp ${i}`);
      const created = await call(first.url, 'POST', `/projects/${project.body.data.id}/jobs`, { type: 'search', targets }, token);
      expect(created.status).toBe(201);
      const jobId = created.body.data.id as string;
      expect(created.body.data.bullJobId).toBe(`${jobId}-0`);
      await vi.waitUntil(
        async () => {
          const job = await call(first.url, 'GET', `/jobs/${jobId}`, undefined, token);
          return job.body.data.targets.some((t: { status: string }) => t.status === 'running');
        },
        { timeout: 15_000, interval: 50, message: 'a target to be running' },
      );

      const stopping = Date.now();
      expect(await first.stop()).toBe(0);
      running.splice(running.indexOf(first), 1);
      expect(Date.now() - stopping).toBeLessThan(grace + 1_500);

      // Nothing is left active in Redis: every unfinished task waits for the next worker.
      const provider = new BullMqQueueProvider({ url: server.url, prefix });
      const stats = await provider.queue({ name: CRAWL_QUEUE, retry: { attempts: 3, backoffMs: 1, maxBackoffMs: 1 }, parse: (p) => p }).stats();
      await provider.close(0);
      expect(stats.active).toBe(0);
      expect(stats.waiting + stats.delayed).toBeGreaterThan(0);
      expect(stats.waiting + stats.delayed + stats.completed).toBe(targets.length);

      const second = await spawnService({ dataDir, env });
      running.push(second);
      const finished = await vi.waitUntil(
        async () => {
          const job = await call(second.url, 'GET', `/jobs/${jobId}`, undefined, token);
          return ['completed', 'failed'].includes(job.body.data.status) ? job.body.data : undefined;
        },
        { timeout: 20_000, interval: 50, message: 'the job to finish after the restart' },
      );
      expect(finished.status).toBe('completed');
      expect(finished.targets.every((t: { status: string }) => t.status === 'success')).toBe(true);
    });
  });
} else {
  describe('SIGTERM with work in flight', () => {
    it('needs a Redis server', (context) => {
      console.warn(`[graceful shutdown test skipped] ${found.skipReason}`);
      expect(found.skipReason).toContain('TEST_REDIS_URL');
      context.skip(found.skipReason);
    });
  });
}
