import { AuditPaths, CatalogPaths, crawlQueueDefinition, type JobFinishedEvent, type ResultRecord } from '@crawl/contracts';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { domainCatalog } from '../../testing/domain-catalog.ts';
import { asinNumber, searchRecord, searchRecords } from '../../testing/result-records.ts';

describe.each(testBackends())('worker-facing job progress (internal routes) ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const createJob = async (targets: string[]) =>
    (await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'search', targets } })).body.data as {
      id: string;
    };
  const getJob = async (id: string) => (await h.request({ method: 'GET', url: `/jobs/${id}`, token: alice.token })).body.data;

  beforeEach(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  it('internal routes refuse callers without a service token, even with a user identity', async () => {
    const job = await createJob(['a']);
    const anonymous = await h.request({ method: 'POST', url: CatalogPaths.claimTarget(job.id, 0), body: {} });
    expect(anonymous.status).toBe(401);
    const asUser = await h.request({ method: 'POST', url: CatalogPaths.reportTarget(job.id, 0), token: alice.token, body: { status: 'success', items: [] } });
    expect(asUser.status).toBe(401);
    const audit = await h.request({
      method: 'POST',
      url: AuditPaths.record,
      token: alice.token,
      body: { organizationId: alice.organizationId, actorUserId: 'x', action: 'auth.login', resourceType: 'user', resourceId: 'x' },
    });
    expect(audit.status).toBe(401);
    expect((await getJob(job.id)).status).toBe('queued');
  });

  it('claim answers proceed false for unknown targets (404), finished targets and terminal jobs', async () => {
    const job = await createJob(['a', 'b']);
    expect((await h.claim('job_missing', 0)).status).toBe(404);
    expect((await h.claim(job.id, 7)).status).toBe(404);
    expect((await h.claim(job.id, 0)).body.data.proceed).toBe(true);
    // A re-delivered task for a running target may proceed (the worker died mid-target).
    expect((await h.claim(job.id, 0)).body.data.proceed).toBe(true);
    await h.report(job.id, 0, { status: 'success', items: [searchRecord()] });
    expect((await h.claim(job.id, 0)).body.data).toEqual({ proceed: false, jobStatus: 'running', targetStatus: 'success' });
  });

  it('a repeated report never duplicates results and never settles twice', async () => {
    const job = await createJob(['a', 'b']);
    await h.claim(job.id, 0);
    const items = searchRecords(3);
    const fourth = searchRecord({ asin: asinNumber(4), keyword: 'b' });
    await h.report(job.id, 0, { status: 'success', items });
    await h.report(job.id, 0, { status: 'success', items });
    let results = await h.request({ method: 'GET', url: `/jobs/${job.id}/results`, token: alice.token });
    expect(results.body.data.pagination.total).toBe(3);
    await h.report(job.id, 1, { status: 'success', items: [fourth] });
    await h.report(job.id, 1, { status: 'success', items: [fourth] });
    results = await h.request({ method: 'GET', url: `/jobs/${job.id}/results`, token: alice.token });
    expect(results.body.data.items).toEqual([...items, fourth]);
    expect((await getJob(job.id)).resultCount).toBe(4);
    expect(h.billing.settlementsFor(job.id)).toHaveLength(1);
  });

  it('two different reports of one target at once: exactly one applies, and rows, counts and totals agree', async () => {
    const targets = Array.from({ length: 6 }, (_, i) => `kw${i}`);
    const job = await createJob(targets);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // As the worker does: a 409 (another report is being applied) is sent again shortly.
    const deliver = async (index: number, body: Parameters<CatalogHarness['report']>[2]) => {
      for (let tries = 0; tries < 400; tries += 1) {
        const res = await h.report(job.id, index, body);
        if (res.status !== 409) return res.status;
        await sleep(5);
      }
      throw new Error('the report was never accepted');
    };
    const delays = [0, 0, 1, 3, 10, 40];
    const statuses = await Promise.all(
      targets.flatMap((_, i) => {
        const items = Array.from({ length: 30 }, (_, n) => searchRecord({ asin: asinNumber(i * 100 + n), keyword: `kw${i}`, position: n + 1 }));
        const success = { status: 'success' as const, items };
        const blocked = { status: 'failed' as const, reason: 'blocked' as const, items: [] };
        const [first, second] = i % 2 === 0 ? [success, blocked] : [blocked, success];
        return [deliver(i, first), sleep(delays[i] ?? 0).then(() => deliver(i, second))];
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    const done = await getJob(job.id);
    const rows: ResultRecord[] = [];
    for await (const batch of h.catalog.results.items(job.id)) rows.push(...batch);
    done.targets.forEach((target: { status: string; resultCount: number }, i: number) => {
      const expected = target.status === 'success' ? 30 : 0;
      expect(['success', 'failed']).toContain(target.status);
      expect(target.resultCount).toBe(expected);
      expect(rows.filter((row) => row.keyword === `kw${i}`)).toHaveLength(expected);
    });
    expect(done.resultCount).toBe(rows.length);
    const results = await h.request({ method: 'GET', url: `/jobs/${job.id}/results`, token: alice.token });
    expect(results.body.data.pagination.total).toBe(rows.length);
    expect(h.billing.settlementsFor(job.id)).toHaveLength(1);
  });

  it('re-running a target replaces its stored items', async () => {
    const job = await createJob(['a']);
    await h.catalog.results.replaceTarget(job.id, 0, searchRecords(4));
    const rerun = searchRecords(2, 9);
    await h.report(job.id, 0, { status: 'success', items: rerun });
    const results = await h.request({ method: 'GET', url: `/jobs/${job.id}/results`, token: alice.token });
    expect(results.body.data.items).toEqual(rerun);
  });

  it('completes when all targets end with at least one success, settles once with the right counts, records one event', async () => {
    const seen: JobFinishedEvent[] = [];
    h.catalog.events.onJobFinished((event) => {
      seen.push(event);
    });
    const job = await createJob(['a', 'b', 'c']);
    await Promise.all([0, 1, 2].map((i) => h.claim(job.id, i)));
    h.clock.advance(2000);
    await Promise.all([
      h.report(job.id, 0, { status: 'success', items: [searchRecord()] }),
      h.report(job.id, 1, { status: 'failed', reason: 'not_found', message: 'gone', items: [] }),
      h.report(job.id, 2, { status: 'failed', reason: 'blocked', items: [] }),
    ]);
    const done = await getJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.completedAt).toBe('2026-03-02T08:00:02.000Z');
    expect(done.resultSetId).toEqual(expect.any(String));
    expect(h.billing.settlementsFor(job.id)).toEqual([
      { organizationId: alice.organizationId, jobId: job.id, succeededTargets: 1, failedTargets: 2, cancelledTargets: 0, unchargedTargets: 0 },
    ]);
    expect(h.billing.account(alice.organizationId)).toMatchObject({ available: 1000 - 5, reserved: 0, spent: 5 });
    const pending = await h.catalog.events.pending();
    expect(pending.map((e) => e.payload)).toEqual([
      { jobId: job.id, organizationId: alice.organizationId, projectId, status: 'completed', occurredAt: '2026-03-02T08:00:02.000Z' },
    ]);
    expect(seen.map((e) => e.jobId)).toEqual([job.id]);
    const state = await h.internal({ method: 'GET', url: CatalogPaths.jobState(job.id), from: 'billing' });
    expect(state.body.data).toEqual({ exists: true, status: 'completed', organizationId: alice.organizationId, settled: true });
  });

  it('fails the job when no target succeeded', async () => {
    const job = await createJob(['a', 'b']);
    await h.report(job.id, 0, { status: 'failed', reason: 'blocked', items: [] });
    const last = await h.report(job.id, 1, { status: 'failed', reason: 'timeout', items: [] });
    expect(last.body.data).toEqual({ jobStatus: 'failed', finished: true });
    expect((await getJob(job.id)).targets).toEqual([
      { value: 'a', status: 'failed', reason: 'blocked', resultCount: 0 },
      { value: 'b', status: 'failed', reason: 'timeout', resultCount: 0 },
    ]);
    expect(h.billing.account(alice.organizationId)).toMatchObject({ available: 1000, spent: 0 });
  });

  it('retries a settlement that billing refused, exactly once more', async () => {
    const job = await createJob(['a']);
    h.billing.failSettles = 1;
    await h.report(job.id, 0, { status: 'success', items: [] });
    expect((await getJob(job.id)).status).toBe('completed');
    let state = await h.internal({ method: 'GET', url: CatalogPaths.jobState(job.id), from: 'billing' });
    expect(state.body.data.settled).toBe(false);
    await h.catalog.maintenance.tick();
    await h.catalog.maintenance.tick();
    state = await h.internal({ method: 'GET', url: CatalogPaths.jobState(job.id), from: 'billing' });
    expect(state.body.data.settled).toBe(true);
    expect(h.billing.settlementsFor(job.id)).toHaveLength(1);
  });

  it('reports an unknown job as not existing to billing', async () => {
    const state = await h.internal({ method: 'GET', url: CatalogPaths.jobState('job_never'), from: 'billing' });
    expect(state.status).toBe(200);
    expect(state.body.data).toEqual({ exists: false });
  });

  it('records audit events sent by other services (auth.login) in the organization log', async () => {
    const res = await h.internal({
      method: 'POST',
      url: AuditPaths.record,
      from: 'auth',
      body: {
        organizationId: alice.organizationId,
        actorUserId: alice.userId,
        action: 'auth.login',
        resourceType: 'user',
        resourceId: alice.userId,
        requestId: 'req-login',
      },
    });
    expect(res.status).toBe(201);
    const audit = await h.request({ method: 'GET', url: '/audit?action=auth.login', token: alice.token });
    expect(audit.body.data).toEqual([
      expect.objectContaining({ action: 'auth.login', actorUserId: alice.userId, requestId: 'req-login', resourceType: 'user' }),
    ]);
    const bad = await h.internal({ method: 'POST', url: AuditPaths.record, from: 'auth', body: { organizationId: alice.organizationId } });
    expect(bad.status).toBe(400);
  });
});

describe('restart recovery', () => {
  it('re-enqueues open targets of unfinished jobs on a fresh queue, idempotently, and finishes stuck jobs', async () => {
    const first = await domainCatalog();
    const actor = { userId: 'usr_1', organizationId: 'org_1' };
    const project = await first.catalog.projects.create(actor, 'p');
    const job = await first.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['a', 'b', 'c'] });
    await first.catalog.progress.claimTarget(job._id, 0);
    await first.catalog.progress.reportTarget(job._id, 0, { status: 'success', items: [] });
    await first.catalog.progress.claimTarget(job._id, 1);
    const done = await first.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['z'] });
    await first.catalog.progress.reportTarget(done._id, 0, { status: 'success', items: [] });
    await first.queues.close();

    // "Restart": same store, a new in-process queue.
    const queues = new InProcessQueueProvider();
    const second = await domainCatalog({ store: first.store, clock: first.clock, billing: first.billing, queues });
    expect(await second.catalog.progress.requeueOpenTargets()).toBe(2);
    await second.catalog.progress.requeueOpenTargets();
    const queue = queues.queue(crawlQueueDefinition());
    expect((await queue.stats()).waiting).toBe(2);
    const seen: Array<[string, number]> = [];
    await queue.process(
      async (task) => {
        seen.push([task.id, task.payload.targetIndex]);
      },
      { concurrency: 1 },
    );
    const deadline = Date.now() + 5000;
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(seen.sort()).toEqual([
      [`${job._id}-1`, 1],
      [`${job._id}-2`, 2],
    ]);
    await queues.close();
    await first.store.close();
  });
});
