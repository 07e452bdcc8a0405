import type { UsageLimits } from '@crawl/contracts';
import type { DocumentStore } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { jobKey, LEGACY_ATTEMPT, markId, UsageRepository, type CountersDoc, type UsageMarkDoc } from './usage-repository.ts';

const NOW = '2026-11-15T12:00:00.000Z';
const LIMITS: UsageLimits = { jobsPerMonth: 2, targetsPerMonth: 10, exportsPerMonth: 1 };

const counting = (jobId: string, targets: number, attempt = 'a1'): UsageMarkDoc => ({
  _id: markId('org_a', '2026-11', jobId),
  organizationId: 'org_a',
  month: '2026-11',
  jobId,
  attempt,
  op: attempt,
  state: 'counting',
  targets,
  updatedAt: NOW,
});

describeOnEachStore('UsageRepository', (open) => {
  let store: DocumentStore;
  let repo: UsageRepository;
  const counters = async () => (await repo.findCounters('org_a', '2026-11')) as CountersDoc;

  beforeEach(async () => {
    store = await open();
    repo = new UsageRepository(store);
    await repo.init();
  });

  it('opens one counters document per organization and month, at zero, also when opens race', async () => {
    const opened = await Promise.all(Array.from({ length: 5 }, () => repo.openCounters('org_a', '2026-11', NOW)));
    expect(new Set(opened.map((doc) => doc._id))).toEqual(new Set(['org_a:2026-11']));
    expect(await counters()).toMatchObject({ jobs: 0, targets: 0, exports: 0 });
    expect(await repo.findCounters('org_a', '2026-12')).toBeNull();
  });

  it('inserts a job mark once; a second insert writes nothing', async () => {
    const results = await Promise.all([repo.insertMark(counting('job_1', 3)), repo.insertMark(counting('job_1', 9, 'a2'))]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await repo.findMark('org_a', '2026-11', 'job_1')).toMatchObject({ state: 'counting' });
  });

  it('counts a job in one conditional update that holds both limits and records the outcome under the job', async () => {
    await repo.openCounters('org_a', '2026-11', NOW);
    expect(await repo.applyJobCount(await counters(), counting('job_1', 8), LIMITS, NOW)).toBe(true);
    const after = await counters();
    expect(after).toMatchObject({ jobs: 1, targets: 8, inflightCount: 1 });
    expect(after.inflight?.[jobKey('job_1')]).toMatchObject({ op: 'a1', applied: true });
    // The same job again: its entry is there, so nothing moves.
    expect(await repo.applyJobCount(after, counting('job_1', 8), LIMITS, NOW)).toBe(false);
    // Another job over the target limit (8 + 3 > 10): nothing moves.
    expect(await repo.applyJobCount(after, counting('job_2', 3), LIMITS, NOW)).toBe(false);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 8 });
  });

  it('records a refusal only while the job does not fit', async () => {
    await repo.openCounters('org_a', '2026-11', NOW);
    expect(await repo.recordCountRefused(await counters(), counting('job_1', 3), LIMITS, 'over', NOW)).toBe(false);
    expect(await repo.applyJobCount(await counters(), counting('job_1', 8), LIMITS, NOW)).toBe(true);
    expect(await repo.recordCountRefused(await counters(), counting('job_2', 3), LIMITS, 'over', NOW)).toBe(true);
    expect((await counters()).inflight?.[jobKey('job_2')]).toMatchObject({ op: 'a1', applied: false, problem: 'over' });
    expect(await counters()).toMatchObject({ jobs: 1, targets: 8, inflightCount: 2 });
  });

  it('clears an entry for its own operation only, and moves the fence so a writer that read before cannot write', async () => {
    await repo.openCounters('org_a', '2026-11', NOW);
    const before = await counters();
    await repo.applyJobCount(before, counting('job_1', 2), LIMITS, NOW);
    expect(await repo.clearInflight('org_a:2026-11', 'job_1', 'other-op')).toBe(false);
    expect(await repo.clearInflight('org_a:2026-11', 'job_1', 'a1')).toBe(true);
    const cleared = await counters();
    expect(cleared.inflight?.[jobKey('job_1')]).toBeUndefined();
    expect(cleared).toMatchObject({ jobs: 1, inflightCount: 0 });
    // A stale writer that read the counters before the clear (no entry then) is fenced off.
    expect(await repo.applyJobCount(before, counting('job_1', 2), LIMITS, NOW)).toBe(false);
    expect(await repo.recordCountCancelled(before, counting('job_1', 2), 'cancelled', NOW)).toBe(false);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 2 });
    // One that read after the clear may write (here: give the job back).
    expect(await repo.applyJobRelease(cleared, { ...counting('job_1', 2), op: 'release:a1', state: 'releasing' }, NOW)).toBe(true);
    expect(await counters()).toMatchObject({ jobs: 0, targets: 0, inflightCount: 1 });
  });

  it('moves a mark only from the state and operation it was read in', async () => {
    const mark = (await repo.insertMark(counting('job_1', 2)))!;
    expect(await repo.markJobReleasing(mark, 'release:a1', NOW)).toBeNull();
    const counted = (await repo.markJobCounted(mark, NOW))!;
    expect(counted.state).toBe('counted');
    expect(await repo.markJobCounted(mark, NOW)).toBeNull();
    expect(await repo.markJobRefused(mark, 'over', NOW)).toBeNull();
    expect(await repo.restartJobCount(counted, '2.a', 5, NOW)).toBeNull();
    const releasing = (await repo.markJobReleasing(counted, 'release:a1', NOW))!;
    expect(releasing).toMatchObject({ state: 'releasing', op: 'release:a1' });
    const released = (await repo.markJobReleased(releasing, NOW))!;
    expect(await repo.restartJobCount(released, 'a0', 5, NOW)).toBeNull(); // not a later attempt
    expect(await repo.restartJobCount(released, '2.a', 5, NOW)).toMatchObject({ state: 'counting', attempt: '2.a', op: '2.a', targets: 5 });
    expect(await repo.restartJobCount(released, '3.a', 5, NOW)).toBeNull();
  });

  it('adopts a legacy jobMarks map as counted marks and drops the map, safely repeated', async () => {
    const legacy = {
      _id: 'org_a:2026-11',
      organizationId: 'org_a',
      month: '2026-11',
      jobs: 2,
      targets: 7,
      exports: 0,
      updatedAt: NOW,
      jobMarks: {} as Record<string, number>,
    };
    legacy.jobMarks[Buffer.from('job.old', 'utf8').toString('base64url')] = 3;
    legacy.jobMarks[Buffer.from('job_2', 'utf8').toString('base64url')] = 4;
    await store.collection<CountersDoc>('usage').insertOne(legacy);
    // A crashed earlier adoption left one mark behind.
    await repo.insertMark({ ...counting('job_2', 4, LEGACY_ATTEMPT), state: 'counted' });
    const adopted = await repo.adoptLegacyMarks(await counters(), NOW);
    expect(adopted.jobMarks).toBeUndefined();
    expect(adopted).toMatchObject({ jobs: 2, targets: 7 });
    expect(await repo.findMark('org_a', '2026-11', 'job.old')).toMatchObject({ state: 'counted', attempt: LEGACY_ATTEMPT, targets: 3 });
    expect(await repo.findMark('org_a', '2026-11', 'job_2')).toMatchObject({ state: 'counted', targets: 4 });
    expect(await repo.adoptLegacyMarks(legacy, NOW)).toMatchObject({ jobs: 2, targets: 7 });
    expect((await counters()).jobMarks).toBeUndefined();
  });

  it('lists only counters with entries in flight, and counts exports up to the limit', async () => {
    await repo.openCounters('org_a', '2026-11', NOW);
    await repo.openCounters('org_b', '2026-11', NOW);
    expect(await repo.countersWithInflight(10)).toEqual([]);
    await repo.applyJobCount(await counters(), counting('job_1', 1), LIMITS, NOW);
    expect((await repo.countersWithInflight(10)).map((doc) => doc._id)).toEqual(['org_a:2026-11']);
    expect(await repo.consumeExport('org_b', '2026-11', 1, NOW)).toMatchObject({ exports: 1 });
    expect(await repo.consumeExport('org_b', '2026-11', 1, NOW)).toBeNull();
  });
});
