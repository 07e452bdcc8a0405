/**
 * Microservices mode end to end: the five services as five processes (`--target=<name>`) on a
 * MongoDB-wire server (FerretDB) and Redis (BullMQ queues), talking over internal HTTP, with the
 * marketplace simulator as the upstream. The whole scenario goes through the gateway: register,
 * project, search and details jobs, results paging, CSV export, usage and credits, cancel, retry
 * and a schedule firing.
 *
 * Backends: TEST_MONGO_URL (else a private FerretDB, see disposable-mongo.ts) and TEST_REDIS_URL
 * (default redis://127.0.0.1:6379). Each run uses its own database prefix and Redis key prefix and
 * deletes its Redis keys afterwards. With CI=true a missing backend fails; elsewhere the test is
 * skipped and says why.
 */
import { randomUUID } from 'node:crypto';
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { deleteKeys, openRedis, whenConnected } from '@crawl/redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { disposableMongo, type DisposableMongo } from './disposable-mongo.ts';
import { reachable } from './reachable.ts';
import { call, type Reply } from './http-call.ts';
import { freePort, spawnService, type SpawnedService } from './spawn-service.ts';

const SERVICES = ['gateway', 'auth', 'catalog', 'billing', 'crawler-worker'] as const;
type Service = (typeof SERVICES)[number];

type Backends = { mongoUrl: string; redisUrl: string; mongo?: DisposableMongo } | { skipReason: string };

async function findBackends(): Promise<Backends> {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const missing = (reason: string): Backends => {
    if (process.env.CI === 'true') throw new Error(`CI requires the microservices e2e test: ${reason}`);
    return { skipReason: reason };
  };
  if (!(await reachable(redisUrl))) return missing(`no Redis at ${redisUrl} (set TEST_REDIS_URL)`);
  if (process.env.TEST_MONGO_URL) {
    if (!(await reachable(process.env.TEST_MONGO_URL))) return missing(`TEST_MONGO_URL=${process.env.TEST_MONGO_URL} does not answer`);
    return { mongoUrl: process.env.TEST_MONGO_URL, redisUrl };
  }
  const found = await disposableMongo();
  if ('skipReason' in found) return { skipReason: found.skipReason };
  return { mongoUrl: found.mongo.url, redisUrl, mongo: found.mongo };
}

const backends = await findBackends();

const TERMINAL = ['completed', 'failed', 'cancelled'];

if ('skipReason' in backends) {
  describe('microservices mode: five processes on MongoDB and Redis', () => {
    it('needs MongoDB (FerretDB) and Redis', (context) => {
      console.warn(`[microservices e2e skipped] ${backends.skipReason}`);
      context.skip(backends.skipReason);
    });
  });
} else {
  const { mongoUrl, redisUrl, mongo } = backends;

  describe('microservices mode: five processes on MongoDB and Redis', () => {
    const runId = randomUUID().replace(/-/g, '').slice(0, 8);
    const redisPrefix = `e2ems${runId}`;
    const running = new Map<Service, SpawnedService>();
    let sim: Simulator;
    let gateway: string;

    beforeAll(async () => {
      // A slow keyword keeps a job running long enough to cancel it mid-crawl.
      sim = await createSimulator({ pageSize: 'small', seed: 7, faults: { rules: [{ keyword: 'slowcancel', fault: 'slow:4000' }] } });
      const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<Service, number>;
      const urlOf = (s: Service) => `http://127.0.0.1:${ports[s]}`;
      const common: Record<string, string> = {
        JWT_SECRET: `microservices-e2e-secret-${runId}-0123456789abcdef`,
        MONGO_URL: mongoUrl,
        MONGO_DB_PREFIX: `ms${runId}_`,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        AUTH_URL: urlOf('auth'),
        CATALOG_URL: urlOf('catalog'),
        BILLING_URL: urlOf('billing'),
        GATEWAY_URL: urlOf('gateway'),
        SHUTDOWN_GRACE_MS: '2000',
        LOG_LEVEL: 'warn',
      };
      const own: Record<Service, Record<string, string>> = {
        gateway: {},
        auth: { ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1' },
        catalog: { SCHEDULER_TICK_MS: '500', MARKETPLACE_EXTRA_HOSTS: sim.host },
        billing: {},
        'crawler-worker': {
          MARKETPLACE: 'live',
          MARKETPLACE_BASE_URL: sim.url,
          UPSTREAM_RATE_PER_MINUTE: '6000',
          UPSTREAM_BURST: '20',
          CRAWL_CONCURRENCY: '4',
          MAX_FETCH_ATTEMPTS: '2',
          FETCH_BACKOFF_MS: '20',
        },
      };
      const started = await Promise.allSettled(
        SERVICES.map(async (service) => {
          const spawned = await spawnService({
            args: [`--target=${service}`],
            port: ports[service],
            env: { ...common, ...own[service] },
            waitFor: '/ready',
            startTimeoutMs: 45_000,
          });
          running.set(service, spawned);
        }),
      );
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      gateway = urlOf('gateway');
    }, 90_000);

    afterAll(async () => {
      const codes = await Promise.all([...running.entries()].map(async ([service, s]) => [service, await s.stop()] as const));
      await sim?.close();
      const redis = openRedis(redisUrl, { name: 'microservices-e2e-cleanup' });
      try {
        await whenConnected(redis);
        await deleteKeys(redis, `${redisPrefix}:*`);
      } finally {
        redis.disconnect();
      }
      await mongo?.kill();
      // Every process drained and exited cleanly on SIGTERM.
      expect(Object.fromEntries(codes)).toEqual(Object.fromEntries(SERVICES.map((s) => [s, 0])));
    }, 60_000);

    it('runs the full scenario through the gateway', async () => {
      const processes = [...running.values()];
      const dump = () =>
        processes
          .map((p) => p.output())
          .join('\n')
          .slice(-8_000);
      try {
        // Each process reports its own dependencies.
        for (const [service, s] of running) {
          const health = await call(s.url, 'GET', '/health');
          expect(health.status, service).toBe(200);
          expect(health.body.info, service).toMatchObject({ mongo: { status: 'up' }, redis: { status: 'up' } });
        }

        // Internal routes answer only callers holding a service token signed with the internal
        // secret: not a client on a service port, not one who makes a token up, not via the gateway.
        const catalog = running.get('catalog')!.url;
        const claim = '/internal/catalog/jobs/job_x/targets/0/claim';
        expect((await call(catalog, 'POST', claim, { body: {} })).status).toBe(401);
        const forged = await fetch(catalog + claim, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-internal-token': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjcmF3bGVyLXdvcmtlciJ9.x' },
          body: '{}',
        });
        expect(forged.status).toBe(401);
        expect((await call(gateway, 'POST', claim, { body: {} })).status).toBe(404);

        // Register (auth → billing signup credits over HTTP) and create a project (catalog).
        const email = `ms-${runId}@example.com`;
        const registered = await call(gateway, 'POST', '/auth/register', { body: { email, password: 'a-long-enough-password', name: 'Micro' } });
        expect(registered.status).toBe(201);
        const token = registered.body.accessToken as string;
        const project = await call(gateway, 'POST', '/projects', { token, body: { name: 'Microservices' } });
        expect(project.status).toBe(201);
        const projectId = project.body.data.id as string;

        // A schedule due a few seconds from now (a daily cron, so the minimum interval holds).
        const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 4_000);
        const cron = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
        const schedule = await call(gateway, 'POST', `/projects/${projectId}/schedules`, {
          token,
          body: { cron, timezone: 'UTC', crawlConfig: { type: 'search', targets: ['scheduled lamp'] } },
        });
        expect(schedule.status).toBe(201);
        expect(schedule.body.data.nextRunAt).toBe(at.toISOString());

        const getJob = async (id: string) => (await call(gateway, 'GET', `/jobs/${id}`, { token })).body.data;
        const finished = (id: string) =>
          vi.waitFor(
            async () => {
              const job = await getJob(id);
              expect(TERMINAL, `job ${id} terminal: ${JSON.stringify(job)}`).toContain(job?.status);
              return job;
            },
            { timeout: 45_000, interval: 100 },
          );

        // Search job: queued in catalog, crawled by the worker process through the Redis queue.
        const search = await call(gateway, 'POST', `/projects/${projectId}/jobs`, {
          token,
          body: { type: 'search', targets: ['wireless headphones', 'usb-c cable'] },
        });
        expect(search.status).toBe(201);
        expect(search.body.data).toMatchObject({ status: 'queued', creditsReserved: 10 });
        // Details job: an ASIN, a product URL on the simulator host, and a page that is always blocked.
        const details = await call(gateway, 'POST', `/projects/${projectId}/jobs`, {
          token,
          body: { type: 'details', targets: ['B0SIM00001', `${sim.url}/dp/B0SIM00002`, 'B0BLOCKED1'] },
        });
        expect(details.status).toBe(201);
        expect(details.body.data.creditsReserved).toBe(6);

        const searchDone = await finished(search.body.data.id);
        expect(searchDone.status).toBe('completed');
        expect(searchDone.targets.map((t: any) => t.status)).toEqual(['success', 'success']);
        expect(searchDone.resultCount).toBeGreaterThan(10);
        const detailsDone = await finished(details.body.data.id);
        expect(detailsDone.status).toBe('completed');
        expect(detailsDone.targets.map((t: any) => [t.asin, t.status, t.reason ?? null])).toEqual([
          ['B0SIM00001', 'success', null],
          ['B0SIM00002', 'success', null],
          ['B0BLOCKED1', 'failed', 'blocked'],
        ]);
        expect(sim.stats().byRoute.search).toBeGreaterThanOrEqual(2);

        // Results, paged.
        const page1 = await call(gateway, 'GET', `/jobs/${searchDone.id}/results?page=1&pageSize=5`, { token });
        expect(page1.status).toBe(200);
        expect(page1.body.data.pagination).toEqual({ page: 1, pageSize: 5, total: searchDone.resultCount, nextCursor: expect.any(String) });
        expect(page1.body.data.items).toHaveLength(5);
        const page2 = await call(gateway, 'GET', `/jobs/${searchDone.id}/results?page=2&pageSize=5`, { token });
        expect(page2.body.data.items).toHaveLength(5);
        const asinsOf = (r: Reply) => r.body.data.items.map((i: any) => `${i.keyword}/${i.asin}`);
        expect(asinsOf(page2).filter((a: string) => asinsOf(page1).includes(a))).toEqual([]);
        const detailItems = await call(gateway, 'GET', `/jobs/${detailsDone.id}/results`, { token });
        expect(detailItems.body.data.items.map((i: any) => i.asin).sort()).toEqual(['B0SIM00001', 'B0SIM00002']);

        // CSV export: an attachment streamed by catalog after billing counted it.
        const csv = await call(gateway, 'GET', `/jobs/${searchDone.id}/export?format=csv`, { token });
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
        expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="job-${searchDone.id}.csv"`);
        const lines = csv.text.trim().split(/\r?\n/);
        expect(lines[0]!.split(',').slice(0, 2)).toEqual(['asin', 'title']);
        expect(lines).toHaveLength(searchDone.resultCount + 1);

        // Cancel a job while its targets are still being crawled (4 s per page upstream).
        const slow = await call(gateway, 'POST', `/projects/${projectId}/jobs`, {
          token,
          body: { type: 'search', targets: ['slowcancel one', 'slowcancel two', 'slowcancel three'] },
        });
        expect(slow.status).toBe(201);
        await expect
          .poll(() => getJob(slow.body.data.id), { timeout: 15_000, interval: 100, message: 'the slow job is picked up' })
          .toMatchObject({ status: 'running' });
        const cancelled = await call(gateway, 'POST', `/jobs/${slow.body.data.id}/cancel`, { token });
        expect(cancelled.status).toBe(200);
        expect(cancelled.body.data.status).toBe('cancelled');
        expect(cancelled.body.data.targets.every((t: any) => t.status === 'cancelled')).toBe(true);
        const again = await call(gateway, 'POST', `/jobs/${slow.body.data.id}/cancel`, { token });
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe('CONFLICT');

        // Retry the details job: a new job with the same targets and a new reservation.
        const retried = await call(gateway, 'POST', `/jobs/${detailsDone.id}/retry`, { token });
        expect(retried.status).toBe(201);
        expect(retried.body.data).toMatchObject({ status: 'queued', retryOf: detailsDone.id, creditsReserved: 6 });
        expect(retried.body.data.id).not.toBe(detailsDone.id);
        const retryDone = await finished(retried.body.data.id);
        expect(retryDone.targets.map((t: any) => t.status)).toEqual(['success', 'success', 'failed']);

        // The schedule fired on catalog's scheduler and its job ran like a user's.
        const fired = await vi.waitUntil(
          async () => {
            const schedule = (await call(gateway, 'GET', `/projects/${projectId}/schedules`, { token })).body.data[0];
            return typeof schedule?.lastJobId === 'string' ? schedule : undefined;
          },
          { timeout: 20_000, interval: 100, message: 'the schedule fires' },
        );
        expect(fired.lastRunAt).not.toBeNull();
        expect(fired.lastError).toBeNull();
        const scheduledJob = await finished(fired.lastJobId);
        expect(scheduledJob).toMatchObject({ status: 'completed', scheduleId: fired.id, projectId });

        // The cancelled job's in-flight crawls got their pages meanwhile; their late reports are ignored.
        const slowServed = () =>
          Object.entries(sim.stats().byPath)
            .filter(([path]) => path.includes('slowcancel'))
            .reduce((n, [, count]) => n + Number(count), 0);
        await expect.poll(slowServed, { timeout: 15_000, interval: 100, message: 'the in-flight slow pages are served' }).toBeGreaterThanOrEqual(1);
        const afterCancel = await getJob(slow.body.data.id);
        expect(afterCancel.status).toBe('cancelled');
        expect(afterCancel.targets.every((t: any) => t.status === 'cancelled')).toBe(true);

        // Usage and credits once every reservation is settled: charged for successes only.
        const usage = await vi.waitFor(
          async () => {
            const current = (await call(gateway, 'GET', '/usage', { token })).body.data;
            expect(current?.credits?.reserved, 'credits settle').toBe(0);
            return current;
          },
          { timeout: 20_000, interval: 100 },
        );
        expect(usage.used).toEqual({ jobsThisMonth: 5, targetsThisMonth: 2 + 3 + 3 + 3 + 1, exportsThisMonth: 1 });
        // search 2×5 + details 2×2 + retry 2×2 + scheduled 1×5; the blocked and cancelled targets are refunded.
        expect(usage.credits).toEqual({ available: 1000 - (10 + 4 + 4 + 5), reserved: 0 });

        const jobs = await call(gateway, 'GET', `/projects/${projectId}/jobs?limit=10`, { token });
        expect(jobs.body.meta.total).toBe(5);
      } catch (error) {
        console.error(`[microservices e2e] process output:\n${dump()}`);
        throw error;
      }
    }, 120_000);
  });
}
