import { crawlQueueDefinition, type CrawlTask } from '@crawl/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { searchRecord } from '../../testing/result-records.ts';

/** How long the test worker spends on each task: a known throughput of 1000 / TASK_MS tasks per second. */
const TASK_MS = 150;

describe('queue position and ETA on GET /jobs/:id, against a known backlog of two organizations', () => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let bob: HarnessUser;

  const project = async (user: HarnessUser) => (await h.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'p' } })).body.data.id;
  const createJob = async (user: HarnessUser, projectId: string, count: number, name: string) => {
    const targets = Array.from({ length: count }, (_, i) => `${name} ${i}`);
    const res = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: user.token, body: { type: 'search', targets } });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const queueOf = async (user: HarnessUser, id: string) => (await h.request({ method: 'GET', url: `/jobs/${id}`, token: user.token })).body.data.queue;

  beforeEach(async () => {
    h = await startCatalogHarness();
    alice = h.user();
    bob = h.user();
  });
  afterEach(async () => {
    await h.close();
  });

  it('gives exact positions and targets ahead from the fair rotation, and an ETA within a second and a half of the actual finish', async () => {
    const aliceProject = await project(alice);
    const bobProject = await project(bob);
    // Alice queues two jobs of 10 targets, then Bob one of 10. Round-robin: a0 b0 a1 b1 … a9 b9,
    // then Alice's second job alone.
    const a1 = await createJob(alice, aliceProject, 10, 'first');
    const a2 = await createJob(alice, aliceProject, 10, 'second');
    const b1 = await createJob(bob, bobProject, 10, 'bob');

    // Nothing measured yet: positions are exact, the ETA unknown.
    expect(await queueOf(alice, a1)).toEqual({ position: 1, targetsAhead: 0, etaSeconds: null });
    // A2's first target is Alice's 11th task: 10 of hers and 10 of Bob's go before it.
    expect(await queueOf(alice, a2)).toEqual({ position: 2, targetsAhead: 20, etaSeconds: null });
    // Bob is not behind Alice's backlog: first in his line, one task (Alice's first) before his.
    expect(await queueOf(bob, b1)).toEqual({ position: 1, targetsAhead: 1, etaSeconds: null });

    // A worker at a known rate: one task at a time, TASK_MS each, reporting through the internal API.
    const queue = h.context.queues.queue<CrawlTask>(crawlQueueDefinition());
    await queue.process(
      async (task) => {
        await h.claim(task.payload.jobId, task.payload.targetIndex);
        await new Promise((resolve) => setTimeout(resolve, TASK_MS));
        const report = await h.report(task.payload.jobId, task.payload.targetIndex, { status: 'success', items: [searchRecord()] });
        expect(report.status).toBe(200);
      },
      { concurrency: 1 },
    );

    // Once throughput is measured (two readings of work a second apart), the ETA is a number. The
    // one checked against the finish is taken with about two seconds measured: over one second the
    // rate is whole tasks in one second, coarse by one task in six.
    const estimate = await vi.waitFor(
      async () => {
        const queued = await queueOf(alice, a2);
        expect(queued.etaSeconds).toEqual(expect.any(Number));
        expect(queued.targetsAhead).toBeLessThanOrEqual(4);
        return queued;
      },
      { timeout: 10_000, interval: 100 },
    );
    const predictedAt = Date.now() + estimate.etaSeconds * 1_000;

    await vi.waitFor(
      async () => {
        const job = (await h.request({ method: 'GET', url: `/jobs/${a2}`, token: alice.token })).body.data;
        expect(job.status).toBe('completed');
        expect(job.queue).toBeUndefined();
      },
      { timeout: 20_000, interval: 50 },
    );
    // The ETA is whole seconds and the rate measured over a short window.
    expect(Math.abs(Date.now() - predictedAt)).toBeLessThanOrEqual(1_500);
  }, 30_000);
});
