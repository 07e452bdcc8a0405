import type { UsageLimits } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import { ManualClock } from '@crawl/clock';
import type { DocumentStore } from '@crawl/storage';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { CountSuperseded, UsageCounters } from './usage-service.ts';
import { testResources } from '../../testing/billing-fixture.ts';
import { jobKey, LEGACY_ATTEMPT, markId, UsageRepository, type CountersDoc, type UsageMarkDoc } from './usage-repository.ts';

const MONTH = '2026-11';
const LIMITS: UsageLimits = { jobsPerMonth: 5, targetsPerMonth: 100, exportsPerMonth: 20 };

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    return String(await promise);
  } catch (error) {
    if (error instanceof AppError) return String(error.statusCode);
    if (error instanceof CountSuperseded) return 'superseded';
    throw error;
  }
}

describeOnEachStore('UsageCounters: counting jobs exactly once', (open, backend) => {
  const burst = backend === 'embedded' ? 30 : 10;
  let store: DocumentStore;
  let clock: ManualClock;
  let usage: UsageCounters;
  let repository: UsageRepository;
  const repo = () => repository;
  const counters = async () => (await repo().findCounters('org_a', MONTH)) as CountersDoc;
  const mark = (jobId: string) => repo().findMark('org_a', MONTH, jobId) as Promise<UsageMarkDoc>;
  const counting = (jobId: string, targets: number, attempt: string): UsageMarkDoc => ({
    _id: markId('org_a', MONTH, jobId),
    organizationId: 'org_a',
    month: MONTH,
    jobId,
    attempt,
    op: attempt,
    state: 'counting',
    targets,
    updatedAt: clock.now().toISOString(),
  });

  beforeEach(async () => {
    store = await open();
    clock = new ManualClock('2026-11-15T12:00:00.000Z');
    repository = new UsageRepository(store);
    await repository.init();
    usage = new UsageCounters(testResources(store, clock), { repository });
  });

  it('counts a job once when the same count races, and leaves nothing in flight', async () => {
    const results = await Promise.all(Array.from({ length: burst }, () => usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3, inflightCount: 0 });
    expect(await mark('job_1')).toMatchObject({ state: 'counted', attempt: 'a1' });
  });

  it('never passes a limit when different jobs race for the last places', async () => {
    await usage.consumeJob('org_a', MONTH, 'job_first', 1, LIMITS, 'a0');
    const outcomes = await Promise.all(Array.from({ length: burst }, (_, i) => outcome(usage.consumeJob('org_a', MONTH, `job_${i}`, 2, LIMITS, `a${i}`))));
    expect(outcomes.filter((o) => o === 'true')).toHaveLength(4);
    expect(outcomes.filter((o) => o === '403')).toHaveLength(burst - 4);
    expect(await counters()).toMatchObject({ jobs: 5, targets: 9, inflightCount: 0 });
    // A refused job stays refused for its attempt; it counts under a new attempt once there is room.
    const refused = outcomes.indexOf('403');
    expect(await mark(`job_${refused}`)).toMatchObject({ state: 'refused' });
    expect(await outcome(usage.consumeJob('org_a', MONTH, `job_${refused}`, 2, LIMITS, `a${refused}`))).toBe('403');
    await usage.releaseJob('org_a', MONTH, 'job_first', 'a0');
    expect(await outcome(usage.consumeJob('org_a', MONTH, `job_${refused}`, 2, LIMITS, '1.retry'))).toBe('true');
    expect(await counters()).toMatchObject({ jobs: 5, targets: 10 });
  });

  it('gives a job back exactly once, also when releases race, and only for the attempt that counted it', async () => {
    await usage.consumeJob('org_a', MONTH, 'job_1', 4, LIMITS, '1.a');
    expect(await usage.releaseJob('org_a', MONTH, 'job_1', 'someone-else')).toBe(false);
    const released = await Promise.all(Array.from({ length: burst }, () => usage.releaseJob('org_a', MONTH, 'job_1', '1.a')));
    expect(released.filter(Boolean)).toHaveLength(1);
    expect(await counters()).toMatchObject({ jobs: 0, targets: 0, inflightCount: 0 });
    expect(await mark('job_1')).toMatchObject({ state: 'released', op: 'release:1.a' });
    // The released attempt cannot count again, nor an older one; a later attempt can.
    expect(await outcome(usage.consumeJob('org_a', MONTH, 'job_1', 4, LIMITS, '0.old'))).toBe('superseded');
    expect(await outcome(usage.consumeJob('org_a', MONTH, 'job_1', 4, LIMITS, '1.a'))).toBe('superseded');
    expect(await usage.consumeJob('org_a', MONTH, 'job_1', 2, LIMITS, '2.a')).toBe(true);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 2 });
  });

  it('finishes a count interrupted after the mark was written (phase 1)', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    await repo().insertMark(counting('job_1', 3, 'a1'));
    expect(await usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1')).toBe(true);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3, inflightCount: 0 });
  });

  it('calls off a count interrupted after phase 1 when its reservation is rolled back, so a late writer cannot count it', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const seenByLateWriter = await counters();
    await repo().insertMark(counting('job_1', 3, 'a1'));
    expect(await usage.releaseJob('org_a', MONTH, 'job_1', 'a1')).toBe(false);
    expect(await mark('job_1')).toMatchObject({ state: 'refused', problem: 'cancelled' });
    expect(await repo().applyJobCount(seenByLateWriter, counting('job_1', 3, 'a1'), LIMITS, clock.now().toISOString())).toBe(false);
    expect(await outcome(usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1'))).toBe('superseded');
    expect(await counters()).toMatchObject({ jobs: 0, targets: 0 });
  });

  it('finishes a count interrupted after the counters moved (phase 2): counted once, mark caught up', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const m = (await repo().insertMark(counting('job_1', 3, 'a1')))!;
    await repo().applyJobCount(await counters(), m, LIMITS, clock.now().toISOString());
    expect(await usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1')).toBe(false);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3, inflightCount: 0 });
    expect(await mark('job_1')).toMatchObject({ state: 'counted' });
  });

  it('releases a count interrupted after phase 2 instead of calling it off (the counters say it was applied)', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const m = (await repo().insertMark(counting('job_1', 3, 'a1')))!;
    await repo().applyJobCount(await counters(), m, LIMITS, clock.now().toISOString());
    expect(await usage.releaseJob('org_a', MONTH, 'job_1', 'a1')).toBe(true);
    expect(await counters()).toMatchObject({ jobs: 0, targets: 0, inflightCount: 0 });
  });

  it('clears an entry left after phase 3 without counting again', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const m = (await repo().insertMark(counting('job_1', 3, 'a1')))!;
    await repo().applyJobCount(await counters(), m, LIMITS, clock.now().toISOString());
    await repo().markJobCounted(m, clock.now().toISOString());
    expect((await counters()).inflight?.[jobKey('job_1')]).toBeDefined();
    expect(await usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1')).toBe(false);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3, inflightCount: 0 });
  });

  it('fences off a writer that saw the count in progress after another writer finished it (no double count)', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const staleCounters = await counters();
    const staleMark = (await repo().insertMark(counting('job_1', 3, 'a1')))!;
    // Another writer runs all phases, clearing the entry.
    expect(await usage.consumeJob('org_a', MONTH, 'job_1', 3, LIMITS, 'a1')).toBe(true);
    expect(await repo().applyJobCount(staleCounters, staleMark, LIMITS, clock.now().toISOString())).toBe(false);
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3 });
  });

  it('lets the reconciler finish operations interrupted between their writes', async () => {
    await repo().openCounters('org_a', MONTH, clock.now().toISOString());
    const a = (await repo().insertMark(counting('job_a', 2, 'a1')))!;
    await repo().applyJobCount(await counters(), a, LIMITS, clock.now().toISOString());
    clock.advance(30_000);
    const b = (await repo().insertMark(counting('job_b', 2, 'b1')))!;
    await repo().applyJobCount(await counters(), b, LIMITS, clock.now().toISOString());
    expect(await usage.resolveInflight('2026-11-15T12:00:10.000Z')).toBe(1);
    expect(await mark('job_a')).toMatchObject({ state: 'counted' });
    expect(await mark('job_b')).toMatchObject({ state: 'counting' });
    expect(await counters()).toMatchObject({ jobs: 2, targets: 4, inflightCount: 1 });
  });

  it('honours counts recorded in a legacy jobMarks map, adopting them on first touch', async () => {
    const jobMarks = { [Buffer.from('job.old', 'utf8').toString('base64url')]: 3 };
    await store.collection<CountersDoc>('usage').insertOne({
      _id: `org_a:${MONTH}`,
      organizationId: 'org_a',
      month: MONTH,
      jobs: 1,
      targets: 3,
      exports: 2,
      jobMarks,
      updatedAt: '2026-11-01T00:00:00.000Z',
    });
    expect(await usage.consumeJob('org_a', MONTH, 'job.old', 3, LIMITS, LEGACY_ATTEMPT)).toBe(false);
    expect(await outcome(usage.consumeJob('org_a', MONTH, 'job.old', 3, LIMITS, 'a-new'))).toBe('superseded');
    expect(await counters()).toMatchObject({ jobs: 1, targets: 3, exports: 2 });
    expect((await counters()).jobMarks).toBeUndefined();
    expect(await usage.releaseJob('org_a', MONTH, 'job.old', LEGACY_ATTEMPT)).toBe(true);
    expect(await usage.used('org_a', MONTH)).toEqual({ jobsThisMonth: 0, targetsThisMonth: 0, exportsThisMonth: 2 });
  });

  it('keeps the counters document small however many jobs were counted', async () => {
    const generous: UsageLimits = { jobsPerMonth: 1000, targetsPerMonth: 100_000, exportsPerMonth: 1 };
    const jobs = backend === 'embedded' ? 200 : 20;
    for (let i = 0; i < jobs; i += 1) await usage.consumeJob('org_a', MONTH, `job_with_a_rather_long_identifier_${i}`, 1, generous, `attempt_${i}`);
    const doc = await counters();
    expect(doc.jobs).toBe(jobs);
    expect(Object.keys(doc.inflight ?? {})).toEqual([]);
    expect(JSON.stringify(doc).length).toBeLessThan(1200);
  });
});
