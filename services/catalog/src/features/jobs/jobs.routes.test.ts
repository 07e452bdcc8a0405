import { crawlQueueDefinition, type CrawlTask } from '@crawl/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { asinNumber, productRecord, searchRecord } from '../../testing/result-records.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(testBackends())('jobs routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;

  const createJob = (body: unknown, token = alice.token, project = projectId) => h.request({ method: 'POST', url: `/projects/${project}/jobs`, token, body });

  const queuedTasks = async () => {
    const stats = await h.context.queues.queue(crawlQueueDefinition()).stats();
    return stats.waiting;
  };

  beforeEach(async () => {
    h = await startCatalogHarness({ env: { MARKETPLACE_EXTRA_HOSTS: '127.0.0.1:4010', ...backend.env() } });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  describe('create', () => {
    it('answers 201 with a queued job, pending targets, credits reserved and the queue reference', async () => {
      const res = await createJob({ type: 'search', targets: ['laptop', 'mouse'], config: { lang: 'de-DE', custom: { a: 1 } } });
      expect(res.status).toBe(201);
      const job = res.body.data;
      expect(job).toMatchObject({
        projectId,
        organizationId: alice.organizationId,
        type: 'search',
        status: 'queued',
        targets: [
          { value: 'laptop', status: 'pending' },
          { value: 'mouse', status: 'pending' },
        ],
        config: { lang: 'de-DE', custom: { a: 1 } },
        creditsReserved: 10,
        bullJobId: `${job.id}-0`,
        resultCount: 0,
      });
      expect(job.createdAt).toMatch(ISO_UTC);
      expect(job.updatedAt).toMatch(ISO_UTC);
      expect(job.completedAt).toBeUndefined();
      expect(h.billing.reservations.get(job.id)).toMatchObject({ credits: 10, targetCount: 2 });
      expect(await queuedTasks()).toBe(2);
    });

    it('reserves 2 credits per ASIN and multiplies search credits by config.pages', async () => {
      const details = await createJob({ type: 'details', targets: ['B000000001', 'B000000002', 'B000000003'] });
      expect(details.body.data.creditsReserved).toBe(6);
      const paged = await createJob({ type: 'search', targets: ['tv'], config: { pages: 3 } });
      expect(paged.body.data.creditsReserved).toBe(15);
    });

    it('removes duplicate targets (trimmed; details by resolved ASIN)', async () => {
      const search = await createJob({ type: 'search', targets: ['laptop', ' laptop ', 'Laptop', 'mouse'] });
      expect(search.body.data.targets.map((t: { value: string }) => t.value)).toEqual(['laptop', 'mouse']);
      const details = await createJob({ type: 'details', targets: ['B000000001', 'https://www.amazon.com/dp/B000000001', 'b000000002'] });
      expect(details.status).toBe(201);
      expect(details.body.data.targets).toEqual([
        { value: 'B000000001', status: 'pending', asin: 'B000000001' },
        { value: 'b000000002', status: 'pending', asin: 'B000000002' },
      ]);
      expect(details.body.data.creditsReserved).toBe(4);
    });

    it('resolves product URLs (/dp/, /gp/product/, allowed extra host) and enqueues the ASIN', async () => {
      const res = await createJob({
        type: 'details',
        targets: [
          'https://www.amazon.de/Some-Product/dp/B0ABCDEF12/ref=sr_1',
          'https://www.amazon.co.uk/gp/product/B0ABCDEF13',
          'http://127.0.0.1:4010/dp/B0ABCDEF14',
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.data.targets.map((t: { asin: string }) => t.asin)).toEqual(['B0ABCDEF12', 'B0ABCDEF13', 'B0ABCDEF14']);
      const seen: CrawlTask[] = [];
      const queue = h.context.queues.queue(crawlQueueDefinition());
      await queue.process(
        async (job) => {
          seen.push(job.payload);
        },
        { concurrency: 1 },
      );
      const deadline = Date.now() + 5000;
      while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      expect(seen.map((t) => t.value).sort()).toEqual(['B0ABCDEF12', 'B0ABCDEF13', 'B0ABCDEF14']);
      expect(seen.every((t) => t.organizationId === alice.organizationId && t.jobId === res.body.data.id && t.type === 'details')).toBe(true);
    });

    it.each([
      ['a random word', 'not-an-asin'],
      ['a foreign host', 'https://evil.example.com/dp/B0ABCDEF12'],
      ['a lookalike host', 'https://amazon.com.evil.example/dp/B0ABCDEF12'],
      ['userinfo trick', 'https://www.amazon.com@evil.example/dp/B0ABCDEF12'],
      ['a URL without ASIN', 'https://www.amazon.com/s?k=laptop'],
      ['a javascript URL', 'javascript:alert(1)//dp/B0ABCDEF12'],
      ['an 11-character ASIN', 'B0ABCDEF123'],
    ])('rejects details target %s with 400 naming it', async (_label, target) => {
      const res = await createJob({ type: 'details', targets: ['B000000001', target] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('targets[1]');
      expect(h.billing.reservations.size).toBe(0);
      expect(await queuedTasks()).toBe(0);
    });

    it('accepts mobile-site and upper-case product URLs', async () => {
      const res = await createJob({
        type: 'details',
        targets: ['https://m.amazon.com/dp/B0ABCDEF12', 'https://www.amazon.com/DP/B0ABCDEF13', 'm.amazon.de/dp/b0abcdef14'],
      });
      expect(res.status).toBe(201);
      expect(res.body.data.targets.map((t: { asin: string }) => t.asin)).toEqual(['B0ABCDEF12', 'B0ABCDEF13', 'B0ABCDEF14']);
    });

    it('checks config.domain against the supported marketplaces before anything is reserved', async () => {
      for (const domain of ['127.0.0.1:6379', 'evil.example', 'amazon.cn', 'localhost']) {
        const res = await createJob({ type: 'search', targets: ['x'], config: { domain } });
        expect(res.status, domain).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message.startsWith(`config.domain ${JSON.stringify(domain)} is not a supported marketplace; use one of amazon.com, `)).toBe(true);
        expect(res.body.error.message).toContain('amazon.co.uk');
        expect(res.body.error.details).toEqual([res.body.error.message]);
      }
      expect(h.billing.reservations.size).toBe(0);
      expect(await queuedTasks()).toBe(0);
      for (const domain of ['amazon.de', 'AMAZON.CO.UK', 'https://www.amazon.fr/']) {
        const res = await createJob({ type: 'search', targets: ['x'], config: { domain } });
        expect(res.status, domain).toBe(201);
        expect(res.body.data.config.domain).toBe(domain);
      }
    });

    it('names every allowed value of an enum in one detail', async () => {
      const res = await createJob({ type: 'questions', targets: ['x'] });
      const allowed = 'type must be one of "search", "details", "reviews", "offers", "bestsellers", "category", "seller", "autocomplete"';
      expect(res.body.error).toEqual({ code: 'VALIDATION_ERROR', message: allowed, details: [allowed] });
    });

    it('answers a text/plain body with 415 like any body that is not JSON', async () => {
      for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
        const res = await h.request({
          method: 'POST',
          url: `/projects/${projectId}/jobs`,
          token: alice.token,
          payload: '{"type":"search","targets":["x"]}',
          headers: { 'content-type': contentType },
        });
        expect(res.status, contentType).toBe(415);
        expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
      expect(h.billing.reservations.size).toBe(0);
    });

    it('says targets must contain at least one element for an empty list', async () => {
      const res = await createJob({ type: 'search', targets: [] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/targets must contain at least one element/);
    });

    it.each([
      ['missing type', { targets: ['x'] }],
      ['unknown type', { type: 'reviews', targets: ['x'] }],
      ['missing targets', { type: 'search' }],
      ['targets as string', { type: 'search', targets: 'laptop' }],
      ['numeric target', { type: 'search', targets: [5] }],
      ['operator object target', { type: 'search', targets: [{ $ne: null }] }],
      ['operator object type', { type: { $ne: null }, targets: ['x'] }],
      ['blank target', { type: 'search', targets: ['  '] }],
      ['oversized target', { type: 'search', targets: ['x'.repeat(2049)] }],
      ['too many targets', { type: 'search', targets: Array.from({ length: 1001 }, (_, i) => `kw${i}`) }],
      ['config not an object', { type: 'search', targets: ['x'], config: 'fast' }],
      ['config array', { type: 'search', targets: ['x'], config: ['a'] }],
      ['bad lang tag', { type: 'search', targets: ['x'], config: { lang: 'english please' } }],
      ['lang operator', { type: 'search', targets: ['x'], config: { lang: { $ne: null } } }],
      ['pages above max', { type: 'search', targets: ['x'], config: { pages: 6 } }],
      ['oversized config', { type: 'search', targets: ['x'], config: { note: 'y'.repeat(5000) } }],
      ['operator key in config', { type: 'search', targets: ['x'], config: { $where: 'sleep(1000)' } }],
      ['extra top-level key', { type: 'search', targets: ['x'], status: 'completed' }],
    ])('rejects %s with 400 and reserves nothing', async (_label, body) => {
      const res = await createJob(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(h.billing.reservations.size).toBe(0);
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token });
      expect(list.body.meta.total).toBe(0);
    });

    it('accepts the maximum number of targets', async () => {
      h.billing.startingCredits = 100_000;
      const bob = h.user();
      const project = (await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'big' } })).body.data.id;
      const res = await createJob({ type: 'search', targets: Array.from({ length: 1000 }, (_, i) => `kw${i}`) }, bob.token, project);
      expect(res.status).toBe(201);
      expect(res.body.data.targets).toHaveLength(1000);
    });

    it('answers 402 INSUFFICIENT_CREDITS and persists nothing when the balance is short', async () => {
      h.billing.account(alice.organizationId).available = 9;
      const res = await createJob({ type: 'search', targets: ['a', 'b'] });
      expect(res.status).toBe(402);
      expect(res.body.error.code).toBe('INSUFFICIENT_CREDITS');
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token });
      expect(list.body.meta.total).toBe(0);
      expect(await queuedTasks()).toBe(0);
    });

    it('answers 403 FORBIDDEN when the monthly job quota is used up', async () => {
      h.billing.limits.jobsPerMonth = 1;
      expect((await createJob({ type: 'search', targets: ['a'] })).status).toBe(201);
      const res = await createJob({ type: 'search', targets: ['b'] });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token });
      expect(list.body.meta.total).toBe(1);
    });

    it('refuses jobs in an archived project with 409', async () => {
      await h.request({ method: 'PATCH', url: `/projects/${projectId}`, token: alice.token, body: { archived: true } });
      const res = await createJob({ type: 'search', targets: ['a'] });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(h.billing.reservations.size).toBe(0);
    });

    it("answers 404 for another organization's project and reserves nothing", async () => {
      const mallory = h.user();
      const res = await createJob({ type: 'search', targets: ['a'] }, mallory.token);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(h.billing.reservations.size).toBe(0);
    });
  });

  describe('list and get', () => {
    it('lists newest first with status filter, limit (default 20, capped at 100), offset and meta.total', async () => {
      h.billing.startingCredits = 100_000;
      const bob = h.user();
      const project = (await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'many' } })).body.data.id;
      const ids: string[] = [];
      for (let i = 0; i < 25; i += 1) {
        h.clock.advance(1000);
        ids.push((await createJob({ type: 'search', targets: [`kw${i}`] }, bob.token, project)).body.data.id);
      }
      const newestFirst = [...ids].reverse();
      const page1 = await h.request({ method: 'GET', url: `/projects/${project}/jobs`, token: bob.token });
      expect(page1.status).toBe(200);
      expect(page1.body.data).toHaveLength(20);
      expect(page1.body.meta).toEqual({ total: 25, limit: 20, offset: 0 });
      expect(page1.body.data.map((j: { id: string }) => j.id)).toEqual(newestFirst.slice(0, 20));
      const page2 = await h.request({ method: 'GET', url: `/projects/${project}/jobs?limit=20&offset=20`, token: bob.token });
      expect(page2.body.data.map((j: { id: string }) => j.id)).toEqual(newestFirst.slice(20));
      const capped = await h.request({ method: 'GET', url: `/projects/${project}/jobs?limit=1000`, token: bob.token });
      expect(capped.status).toBe(200);
      expect(capped.body.meta.limit).toBe(100);
      expect(capped.body.data).toHaveLength(25);
      const beyond = await h.request({ method: 'GET', url: `/projects/${project}/jobs?offset=500`, token: bob.token });
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.total).toBe(25);

      await h.request({ method: 'POST', url: `/jobs/${ids[0]}/cancel`, token: bob.token });
      const cancelled = await h.request({ method: 'GET', url: `/projects/${project}/jobs?status=cancelled`, token: bob.token });
      expect(cancelled.body.data.map((j: { id: string }) => j.id)).toEqual([ids[0]]);
      expect(cancelled.body.meta.total).toBe(1);
      const queued = await h.request({ method: 'GET', url: `/projects/${project}/jobs?status=queued&limit=1`, token: bob.token });
      expect(queued.body.meta.total).toBe(24);
    });

    it.each(['limit=0', 'limit=-1', 'limit=abc', 'offset=-5', 'status=done'])('rejects list query %s with 400', async (query) => {
      const res = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs?${query}`, token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('ignores query parameters it does not know (cache-busters), never reading one as an operator', async () => {
      const job = (await createJob({ type: 'search', targets: ['a'] })).body.data;
      for (const query of ['foo=bar', '_=1700000000000', 'status[$ne]=queued', 'limit=5&utm_source=mail']) {
        const res = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs?${query}`, token: alice.token });
        expect(res.status, query).toBe(200);
        expect(res.body.data.map((j: { id: string }) => j.id)).toEqual([job.id]);
      }
      const single = await h.request({ method: 'GET', url: `/jobs/${job.id}?nocache=1`, token: alice.token });
      expect(single.status).toBe(200);
    });

    it('explains a bad enum once, with every allowed value', async () => {
      const res = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs?status=done`, token: alice.token });
      expect(res.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'status must be one of "queued", "running", "completed", "failed", "cancelled"',
        details: ['status must be one of "queued", "running", "completed", "failed", "cancelled"'],
      });
    });

    it("hides another organization's jobs: 404 by id, absent from lists", async () => {
      const job = (await createJob({ type: 'search', targets: ['a'] })).body.data;
      const mallory = h.user();
      const foreign = await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: mallory.token });
      const unknown = await h.request({ method: 'GET', url: '/jobs/job_unknown', token: mallory.token });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
      for (const path of ['results', 'export']) {
        const res = await h.request({ method: 'GET', url: `/jobs/${job.id}/${path}`, token: mallory.token });
        expect(res.status).toBe(404);
      }
      for (const path of ['retry', 'cancel']) {
        const res = await h.request({ method: 'POST', url: `/jobs/${job.id}/${path}`, token: mallory.token });
        expect(res.status).toBe(404);
      }
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: mallory.token });
      expect(list.status).toBe(404);
      const own = await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token });
      expect(own.body.data.status).toBe('queued');
      expect(h.billing.exportCalls).toHaveLength(0);
    });

    it('returns the full job with progress fields as it runs and completes', async () => {
      const job = (await createJob({ type: 'search', targets: ['a', 'b'] })).body.data;
      h.clock.advance(1000);
      expect((await h.claim(job.id, 0)).body.data).toEqual({ proceed: true, jobStatus: 'running', targetStatus: 'running' });
      const running = (await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token })).body.data;
      expect(running.status).toBe('running');
      expect(running.startedAt).toBe('2026-03-02T08:00:01.000Z');
      expect(running.targets[0].status).toBe('running');
      await h.report(job.id, 0, {
        status: 'success',
        items: [searchRecord({ keyword: 'a', price: { amount: 1.5, currency: 'EUR', raw: '1,50 €' }, rank: 1 })],
      });
      h.clock.advance(1000);
      await h.claim(job.id, 1);
      const report = await h.report(job.id, 1, { status: 'failed', reason: 'blocked', items: [] });
      expect(report.body.data).toEqual({ jobStatus: 'completed', finished: true });
      const done = (await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token })).body.data;
      expect(done).toMatchObject({
        status: 'completed',
        resultCount: 1,
        startedAt: '2026-03-02T08:00:01.000Z',
        completedAt: '2026-03-02T08:00:02.000Z',
        targets: [
          { value: 'a', status: 'success', resultCount: 1 },
          { value: 'b', status: 'failed', reason: 'blocked' },
        ],
      });
      expect(done.resultSetId).toEqual(expect.any(String));
    });
  });

  describe('retry', () => {
    it('creates a new queued job copying type, config and target values with a new reservation', async () => {
      const original = (await createJob({ type: 'details', targets: ['B000000001', 'https://www.amazon.com/dp/B000000002'], config: { lang: 'en', x: [1] } }))
        .body.data;
      for (const index of [0, 1]) {
        await h.claim(original.id, index);
        await h.report(original.id, index, { status: 'success', items: [productRecord({ asin: asinNumber(index + 1) })] });
      }
      const res = await h.request({ method: 'POST', url: `/jobs/${original.id}/retry`, token: alice.token });
      expect(res.status).toBe(201);
      const retried = res.body.data;
      expect(retried.id).not.toBe(original.id);
      expect(retried).toMatchObject({
        type: 'details',
        status: 'queued',
        projectId,
        config: { lang: 'en', x: [1] },
        targets: [
          { value: 'B000000001', status: 'pending' },
          { value: 'https://www.amazon.com/dp/B000000002', status: 'pending' },
        ],
        creditsReserved: 4,
        retryOf: original.id,
      });
      expect(h.billing.reservations.get(retried.id)?.credits).toBe(4);
    });

    it('answers 409 CONFLICT for a job still queued or running: no second crawl, no second reservation', async () => {
      const original = (await createJob({ type: 'search', targets: ['a', 'b'] })).body.data;
      const queued = await h.request({ method: 'POST', url: `/jobs/${original.id}/retry`, token: alice.token });
      expect(queued.status).toBe(409);
      expect(queued.body.error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/still queued.*cancel/),
        details: [{ reason: 'JOB_NOT_FINISHED', status: 'queued' }],
      });
      await h.claim(original.id, 0);
      await h.report(original.id, 0, { status: 'success', items: [] });
      const running = await h.request({ method: 'POST', url: `/jobs/${original.id}/retry`, token: alice.token });
      expect(running.status).toBe(409);
      expect(running.body.error.message).toMatch(/still running/);
      expect([...h.billing.reservations.keys()]).toEqual([original.id]);
      expect((await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token })).body.meta.total).toBe(1);
      // The original's two tasks, none for a duplicate.
      expect(await queuedTasks()).toBe(2);
    });

    it('answers 402 when credits are short for the retry', async () => {
      const original = (await createJob({ type: 'search', targets: ['a', 'b'] })).body.data;
      await h.request({ method: 'POST', url: `/jobs/${original.id}/cancel`, token: alice.token });
      h.billing.account(alice.organizationId).available = 5;
      const res = await h.request({ method: 'POST', url: `/jobs/${original.id}/retry`, token: alice.token, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(402);
      expect(res.body.error.code).toBe('INSUFFICIENT_CREDITS');
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token });
      expect(list.body.meta.total).toBe(1);
    });
  });

  describe('cancel', () => {
    it('cancels a queued job, cancels its targets and refunds them through one settlement', async () => {
      const job = (await createJob({ type: 'search', targets: ['a', 'b', 'c'] })).body.data;
      expect(h.billing.account(alice.organizationId).available).toBe(985);
      const res = await h.request({ method: 'POST', url: `/jobs/${job.id}/cancel`, token: alice.token, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('cancelled');
      expect(res.body.data.targets.map((t: { status: string }) => t.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(res.body.data.completedAt).toMatch(ISO_UTC);
      expect(h.billing.settlementsFor(job.id)).toEqual([
        { organizationId: alice.organizationId, jobId: job.id, succeededTargets: 0, failedTargets: 0, cancelledTargets: 3, unchargedTargets: 0 },
      ]);
      expect(h.billing.account(alice.organizationId).available).toBe(1000);
      const state = await h.internal({ method: 'GET', url: `/internal/catalog/jobs/${job.id}/state`, from: 'billing' });
      expect(state.body.data).toEqual({ exists: true, status: 'cancelled', organizationId: alice.organizationId, settled: true });
    });

    it('cancels a running job: finished targets keep their status, open ones are refunded, late reports are ignored', async () => {
      const job = (await createJob({ type: 'search', targets: ['a', 'b', 'c'] })).body.data;
      await h.claim(job.id, 0);
      const kept = searchRecord({ keyword: 'a', title: 'kept' });
      await h.report(job.id, 0, { status: 'success', items: [kept] });
      await h.claim(job.id, 1);
      const res = await h.request({ method: 'POST', url: `/jobs/${job.id}/cancel`, token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.data.targets.map((t: { status: string }) => t.status)).toEqual(['success', 'cancelled', 'cancelled']);
      expect(h.billing.settlementsFor(job.id)).toEqual([
        { organizationId: alice.organizationId, jobId: job.id, succeededTargets: 1, failedTargets: 0, cancelledTargets: 2, unchargedTargets: 0 },
      ]);

      // The worker finishes target 1 after the cancel: nothing changes, nothing settles again.
      const late = await h.report(job.id, 1, { status: 'success', items: [searchRecord({ keyword: 'b', title: 'late' })] });
      expect(late.status).toBe(200);
      expect(late.body.data).toEqual({ jobStatus: 'cancelled', finished: true });
      const claim = await h.claim(job.id, 2);
      expect(claim.body.data).toEqual({ proceed: false, jobStatus: 'cancelled', targetStatus: 'cancelled' });
      expect(h.billing.settlementsFor(job.id)).toHaveLength(1);
      const results = await h.request({ method: 'GET', url: `/jobs/${job.id}/results`, token: alice.token });
      expect(results.body.data.items).toEqual([kept]);
      const after = (await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token })).body.data;
      expect(after.targets[1].status).toBe('cancelled');
      expect(after.resultCount).toBe(1);
    });

    it('answers 409 CONFLICT for a terminal job', async () => {
      const job = (await createJob({ type: 'search', targets: ['a'] })).body.data;
      await h.claim(job.id, 0);
      await h.report(job.id, 0, { status: 'success', items: [] });
      const completed = await h.request({ method: 'POST', url: `/jobs/${job.id}/cancel`, token: alice.token });
      expect(completed.status).toBe(409);
      expect(completed.body.error.code).toBe('CONFLICT');
      const other = (await createJob({ type: 'search', targets: ['b'] })).body.data;
      expect((await h.request({ method: 'POST', url: `/jobs/${other.id}/cancel`, token: alice.token })).status).toBe(200);
      const twice = await h.request({ method: 'POST', url: `/jobs/${other.id}/cancel`, token: alice.token });
      expect(twice.status).toBe(409);
      expect(h.billing.settlementsFor(other.id)).toHaveLength(1);
    });
  });

  describe('audit', () => {
    it('records job create, retry, cancel and export with actor, resource and request id', async () => {
      const job = (await createJob({ type: 'search', targets: ['a'] })).body.data;
      h.clock.advance(1000);
      await h.request({ method: 'POST', url: `/jobs/${job.id}/cancel`, token: alice.token, headers: { 'x-request-id': 'req-cancel' } });
      h.clock.advance(1000);
      const retried = (await h.request({ method: 'POST', url: `/jobs/${job.id}/retry`, token: alice.token, headers: { 'x-request-id': 'req-retry' } })).body
        .data;
      h.clock.advance(1000);
      await h.request({ method: 'GET', url: `/jobs/${job.id}/export`, token: alice.token });
      const audit = await h.request({ method: 'GET', url: '/audit', token: alice.token });
      const actions = audit.body.data.map((e: { action: string }) => e.action);
      expect(actions).toEqual(['job.export', 'job.retry', 'job.cancel', 'job.create', 'project.create']);
      const byAction = Object.fromEntries(audit.body.data.map((e: { action: string }) => [e.action, e]));
      expect(byAction['job.retry']).toMatchObject({
        resourceType: 'job',
        resourceId: retried.id,
        requestId: 'req-retry',
        actorUserId: alice.userId,
        metadata: { retryOf: job.id },
      });
      expect(byAction['job.cancel']).toMatchObject({ resourceId: job.id, requestId: 'req-cancel' });
      expect(byAction['job.create'].createdAt).toMatch(ISO_UTC);
      const filtered = await h.request({ method: 'GET', url: '/audit?action=job.cancel', token: alice.token });
      expect(filtered.body.data).toHaveLength(1);
      expect(filtered.body.meta.total).toBe(1);
      const paged = await h.request({ method: 'GET', url: '/audit?limit=2&offset=1', token: alice.token });
      expect(paged.body.data.map((e: { action: string }) => e.action)).toEqual(['job.retry', 'job.cancel']);
      expect(paged.body.meta).toEqual({ total: 5, limit: 2, offset: 1 });
      const mallory = h.user();
      const foreign = await h.request({ method: 'GET', url: '/audit', token: mallory.token });
      expect(foreign.body.data).toEqual([]);
      expect(foreign.body.meta.total).toBe(0);
    });
  });
});
