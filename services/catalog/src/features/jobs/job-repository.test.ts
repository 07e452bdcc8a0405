import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeAll, expect, it } from 'vitest';
import type { JobStatus } from '@crawl/contracts';
import type { DocumentStore } from '@crawl/storage';
import type { JobDoc, TargetDoc } from './job-model.ts';
import { JobRepository, type TargetOutcome } from './job-repository.ts';

/** The repository announces each change of a job; these tests follow the documents instead. */
const unannounced = { publish: () => undefined };

const NOW = '2026-03-02T08:00:00.000Z';
const LATER = '2026-03-02T08:05:00.000Z';
const EARLIER = '2026-03-02T07:59:00.000Z';
let sequence = 0;

function job(overrides: Partial<JobDoc> = {}, targets = 3): JobDoc {
  sequence += 1;
  return {
    _id: `job_${String(sequence).padStart(6, '0')}`,
    organizationId: 'org_a',
    projectId: 'prj_a',
    type: 'search',
    status: 'queued',
    targets: Array.from({ length: targets }, (_, i): TargetDoc => ({ value: `kw${i}`, status: 'pending' })),
    config: {},
    unitsPerTarget: 5,
    creditsReserved: 5 * targets,
    resultCount: 0,
    createdBy: 'usr_a',
    createdAt: NOW,
    updatedAt: NOW,
    settled: false,
    ...overrides,
  };
}

describeOnEachStore('JobRepository', (open) => {
  let store: DocumentStore;
  let jobs: JobRepository;

  beforeAll(async () => {
    store = await open();
    jobs = new JobRepository(store, unannounced);
    await jobs.init();
  });

  /** A report as the service applies it: under the target's lease. */
  const report = async (id: string, index: number, outcome: TargetOutcome, now: string) => {
    await jobs.takeReportLease(id, index, 'report-a', now, EARLIER);
    return jobs.recordReport(id, index, outcome, now, 'report-a');
  };

  it('finds a job by id, and by id only within its organization', async () => {
    const doc = await jobs.insert(job());
    expect((await jobs.findById(doc._id))?._id).toBe(doc._id);
    expect((await jobs.findOwned('org_a', doc._id))?._id).toBe(doc._id);
    expect(await jobs.findOwned('org_b', doc._id)).toBeNull();
    expect(await jobs.findById('job_missing')).toBeNull();
  });

  it('lists a project newest first (id breaks ties) with offset, limit, status filter and totals', async () => {
    const ids: Array<{ id: string; status: JobStatus }> = [];
    for (let i = 0; i < 30; i += 1) {
      // Pairs of jobs share a creation time: the id decides their order.
      const createdAt = new Date(Date.parse(NOW) + Math.floor(i / 2) * 1000).toISOString();
      const status: JobStatus = i % 3 === 0 ? 'completed' : 'queued';
      const inserted = await jobs.insert(job({ projectId: 'prj_list', createdAt, status }));
      ids.push({ id: inserted._id, status });
    }
    await jobs.insert(job({ projectId: 'prj_other' }));
    await jobs.insert(job({ projectId: 'prj_list', organizationId: 'org_b' }));
    const newestFirst = ids.map((entry) => entry.id).reverse();

    const first = await jobs.listPage({ organizationId: 'org_a', projectId: 'prj_list' }, { offset: 0, limit: 20 });
    expect(first.total).toBe(30);
    expect(first.jobs.map((j) => j._id)).toEqual(newestFirst.slice(0, 20));
    const second = await jobs.listPage({ organizationId: 'org_a', projectId: 'prj_list' }, { offset: 20, limit: 20 });
    expect(second.jobs.map((j) => j._id)).toEqual(newestFirst.slice(20));
    expect(second.total).toBe(30);
    const beyond = await jobs.listPage({ organizationId: 'org_a', projectId: 'prj_list' }, { offset: 100, limit: 20 });
    expect(beyond).toEqual({ jobs: [], total: 30 });

    const completed = await jobs.listPage({ organizationId: 'org_a', projectId: 'prj_list', status: 'completed' }, { offset: 2, limit: 3 });
    const completedIds = ids
      .filter((entry) => entry.status === 'completed')
      .map((entry) => entry.id)
      .reverse();
    expect(completed.total).toBe(10);
    expect(completed.jobs.map((j) => j._id)).toEqual(completedIds.slice(2, 5));
    expect((await jobs.listPage({ organizationId: 'org_b', projectId: 'prj_list' }, { offset: 0, limit: 20 })).total).toBe(1);
  });

  it('claims open targets (again after a crash) but never a finished target or a cancelled job', async () => {
    const doc = await jobs.insert(job());
    const claimed = await jobs.claimTarget(doc._id, 0, NOW);
    expect(claimed).toMatchObject({ status: 'running', startedAt: NOW });
    expect(claimed?.targets[0]).toMatchObject({ status: 'running', startedAt: NOW });
    // A re-delivered task may claim a running target; startedAt of the job keeps the first claim.
    expect((await jobs.claimTarget(doc._id, 0, LATER))?.startedAt).toBe(NOW);
    await report(doc._id, 0, { status: 'success', resultCount: 2 }, LATER);
    expect(await jobs.claimTarget(doc._id, 0, LATER)).toBeNull();
    const current = await jobs.findById(doc._id);
    await jobs.cancelOpen(current as JobDoc, 'org_a', LATER);
    expect(await jobs.claimTarget(doc._id, 1, LATER)).toBeNull();
    expect((await jobs.findById(doc._id))?.targets.map((t) => t.status)).toEqual(['success', 'cancelled', 'cancelled']);
  });

  it('racing claims and a cancel: no claim lands after the cancel', async () => {
    const doc = await jobs.insert(job({}, 4));
    const claims = Array.from({ length: 4 }, (_, i) => jobs.claimTarget(doc._id, i, NOW));
    const cancel = (async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const current = (await jobs.findById(doc._id)) as JobDoc;
        const cancelled = await jobs.cancelOpen(current, 'org_a', LATER);
        if (cancelled) return cancelled;
      }
      return null;
    })();
    const [cancelled] = await Promise.all([cancel, ...claims]);
    expect(cancelled?.status).toBe('cancelled');
    const final = await jobs.findById(doc._id);
    expect(final?.status).toBe('cancelled');
    expect(final?.targets.every((t) => t.status === 'cancelled')).toBe(true);
  });

  it('records a report once: of racing reports for one target exactly one counts', async () => {
    const doc = await jobs.insert(job({}, 2));
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => report(doc._id, 0, { status: 'success', resultCount: 3 }, NOW)));
    expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    const final = await jobs.findById(doc._id);
    expect(final).toMatchObject({ status: 'running', resultCount: 3, startedAt: NOW });
    expect(final?.targets[0]).toEqual({ value: 'kw0', status: 'success', resultCount: 3, finishedAt: NOW, reportToken: 'report-a', reportingAt: NOW });
    const failed = await report(doc._id, 1, { status: 'failed', resultCount: 0, reason: 'blocked', message: 'captcha' }, LATER);
    expect(failed?.targets[1]).toMatchObject({ status: 'failed', reason: 'blocked', message: 'captcha', resultCount: 0 });
    expect(failed?.resultCount).toBe(3);
  });

  it('lets one report at a time apply to a target: its own retry gets back in, another waits until the lease is stale', async () => {
    const doc = await jobs.insert(job({}, 1));
    const racing = await Promise.all([jobs.takeReportLease(doc._id, 0, 'report-a', NOW, EARLIER), jobs.takeReportLease(doc._id, 0, 'report-b', NOW, EARLIER)]);
    expect(racing.filter((leased) => leased !== null)).toHaveLength(1);
    const holder = racing[0] ? 'report-a' : 'report-b';
    const other = holder === 'report-a' ? 'report-b' : 'report-a';
    expect(await jobs.takeReportLease(doc._id, 0, holder, NOW, EARLIER)).not.toBeNull();
    expect(await jobs.recordReport(doc._id, 0, { status: 'success', resultCount: 1 }, NOW, other)).toBeNull();
    // The holder died: a minute later its lease is stale and the other report takes over.
    expect(await jobs.takeReportLease(doc._id, 0, other, LATER, '2026-03-02T08:04:00.000Z')).not.toBeNull();
    expect(await jobs.recordReport(doc._id, 0, { status: 'success', resultCount: 1 }, LATER, holder)).toBeNull();
    const done = await jobs.recordReport(doc._id, 0, { status: 'failed', resultCount: 0, reason: 'blocked' }, LATER, other);
    expect(done?.targets[0]).toMatchObject({ status: 'failed', reason: 'blocked', reportToken: other });
    expect(await jobs.takeReportLease(doc._id, 0, holder, LATER, LATER)).toBeNull();
  });

  it('parallel reports of different targets all count', async () => {
    const doc = await jobs.insert(job({}, 5));
    await Promise.all(Array.from({ length: 5 }, (_, i) => report(doc._id, i, { status: 'success', resultCount: i + 1 }, NOW)));
    const final = await jobs.findById(doc._id);
    expect(final?.resultCount).toBe(15);
    expect(final?.targets.map((t) => t.resultCount)).toEqual([1, 2, 3, 4, 5]);
  });

  it('finishes an active job once, and cancelOpen refuses when a target finished since the read', async () => {
    const doc = await jobs.insert(job({}, 2));
    const read = (await jobs.findById(doc._id)) as JobDoc;
    await report(doc._id, 0, { status: 'success', resultCount: 1 }, NOW);
    expect(await jobs.cancelOpen(read, 'org_a', LATER)).toBeNull();
    expect(await jobs.cancelOpen((await jobs.findById(doc._id)) as JobDoc, 'org_b', LATER)).toBeNull();

    const finishes = await Promise.all([
      jobs.finish(doc._id, 'completed', LATER),
      jobs.finish(doc._id, 'failed', LATER),
      jobs.finish(doc._id, 'completed', LATER),
    ]);
    const winners = finishes.filter((f) => f !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ completedAt: LATER, resultSetId: `rs_${doc._id}` });
    expect(await jobs.findActive(doc._id)).toBeNull();
  });

  it('hands the settlement lease to one caller, retakes a stale one, and settles once', async () => {
    const doc = await jobs.insert(job({ status: 'completed' }));
    const staleBefore = '2026-03-02T07:59:00.000Z';
    const leases = await Promise.all(Array.from({ length: 4 }, () => jobs.takeSettleLease(doc._id, NOW, staleBefore)));
    expect(leases.filter((l) => l !== null)).toHaveLength(1);
    // Held and fresh: nobody else gets it; once older than the cut-off it can be retaken.
    expect(await jobs.takeSettleLease(doc._id, NOW, staleBefore)).toBeNull();
    expect(await jobs.takeSettleLease(doc._id, LATER, '2026-03-02T08:01:00.000Z')).not.toBeNull();
    await jobs.releaseSettleLease(doc._id);
    expect((await jobs.findById(doc._id))?.settleClaimedAt).toBeUndefined();
    expect(await jobs.takeSettleLease(doc._id, LATER, staleBefore)).not.toBeNull();
    await jobs.markSettled(doc._id, { succeeded: 2, failed: 0, cancelled: 0, uncharged: 1 }, LATER);
    expect(await jobs.findById(doc._id)).toMatchObject({
      settled: true,
      settledAt: LATER,
      settlement: { succeeded: 2, failed: 0, cancelled: 0, uncharged: 1 },
    });
    expect(await jobs.takeSettleLease(doc._id, '2026-03-03T00:00:00.000Z', '2026-03-02T23:00:00.000Z')).toBeNull();
    // An active job has nothing to settle.
    const active = await jobs.insert(job());
    expect(await jobs.takeSettleLease(active._id, NOW, staleBefore)).toBeNull();
  });

  it('finds unsettled terminal jobs oldest first and streams active jobs untouched since a time', async () => {
    const fresh = await open();
    const repo = new JobRepository(fresh, unannounced);
    await repo.init();
    const a = await repo.insert(job({ status: 'failed', updatedAt: LATER }));
    const b = await repo.insert(job({ status: 'cancelled', updatedAt: NOW }));
    await repo.insert(job({ status: 'completed', settled: true }));
    const q = await repo.insert(job({ status: 'queued', updatedAt: NOW, createdAt: NOW }));
    const r = await repo.insert(job({ status: 'running', updatedAt: LATER, createdAt: LATER }));
    expect((await repo.findUnsettled(10)).map((j) => j._id)).toEqual([b._id, a._id]);
    expect((await repo.findUnsettled(1)).map((j) => j._id)).toEqual([b._id]);
    const all: string[] = [];
    for await (const doc of repo.streamActive()) all.push(doc._id);
    expect(all).toEqual([q._id, r._id]);
    const stale: string[] = [];
    for await (const doc of repo.streamActive({ untouchedSince: '2026-03-02T08:01:00.000Z' })) stale.push(doc._id);
    expect(stale).toEqual([q._id]);
  });
});
