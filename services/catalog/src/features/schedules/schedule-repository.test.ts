import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { ScheduleRepository, type ScheduleDoc } from './schedule-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';

const T0 = '2026-03-02T08:00:00.000Z';

function schedule(id: string, extra: Partial<ScheduleDoc> = {}): ScheduleDoc {
  return {
    _id: id,
    organizationId: 'org_a',
    projectId: 'prj_1',
    cron: '0 6 * * *',
    timezone: 'UTC',
    crawlConfig: { type: 'search', targets: ['kw'] },
    enabled: true,
    nextRunAt: '2026-03-03T06:00:00.000Z',
    lastRunAt: null,
    lastJobId: null,
    lastError: null,
    runCount: 0,
    createdBy: 'usr_1',
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  };
}

describeOnEachStore('ScheduleRepository', (open, backend) => {
  let repo: ScheduleRepository;

  beforeEach(async () => {
    repo = new ScheduleRepository(await open());
    await repo.init();
  });

  it('finds and updates a schedule only within its organization', async () => {
    await repo.insert(schedule('sch_1'));
    expect(await repo.findOwned('org_a', 'sch_1')).toMatchObject({ _id: 'sch_1', cron: '0 6 * * *' });
    expect(await repo.findOwned('org_b', 'sch_1')).toBeNull();
    expect(await repo.findOwned('org_a', 'sch_nope')).toBeNull();

    expect(await repo.update('org_b', 'sch_1', { enabled: false, updatedAt: '2026-03-02T09:00:00.000Z' })).toBeNull();
    expect((await repo.findOwned('org_a', 'sch_1'))?.enabled).toBe(true);

    const updated = await repo.update('org_a', 'sch_1', { cron: '0 7 * * *', nextRunAt: '2026-03-03T07:00:00.000Z', updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(updated).toMatchObject({ cron: '0 7 * * *', nextRunAt: '2026-03-03T07:00:00.000Z', enabled: true, updatedAt: '2026-03-02T09:00:00.000Z' });
  });

  it('lists a project newest first (id breaks ties), never another project or organization', async () => {
    await repo.insert(schedule('sch_a', { createdAt: '2026-03-01T00:00:00.000Z' }));
    await repo.insert(schedule('sch_c', { createdAt: '2026-03-02T00:00:00.000Z' }));
    await repo.insert(schedule('sch_b', { createdAt: '2026-03-02T00:00:00.000Z' }));
    await repo.insert(schedule('sch_other_project', { projectId: 'prj_2' }));
    await repo.insert(schedule('sch_other_org', { organizationId: 'org_b' }));
    const all = { offset: 0, limit: 100 };
    expect((await repo.listPage({ organizationId: 'org_a', projectId: 'prj_1' }, all)).schedules.map((s) => s._id)).toEqual(['sch_c', 'sch_b', 'sch_a']);
    expect((await repo.listPage({ organizationId: 'org_b', projectId: 'prj_1' }, all)).schedules.map((s) => s._id)).toEqual(['sch_other_org']);
    expect(await repo.listPage({ organizationId: 'org_b', projectId: 'prj_2' }, all)).toEqual({ schedules: [], total: 0 });
    expect(await repo.listPage({ organizationId: 'org_a', projectId: 'prj_1' }, { offset: 1, limit: 1 })).toMatchObject({
      total: 3,
      schedules: [{ _id: 'sch_b' }],
    });
  });

  it('finds enabled due schedules across organizations, earliest first, up to the limit', async () => {
    await repo.insert(schedule('sch_late', { nextRunAt: '2026-03-03T06:00:00.000Z' }));
    await repo.insert(schedule('sch_early', { organizationId: 'org_b', nextRunAt: '2026-03-03T05:00:00.000Z' }));
    await repo.insert(schedule('sch_exact', { nextRunAt: '2026-03-03T07:00:00.000Z' }));
    await repo.insert(schedule('sch_future', { nextRunAt: '2026-03-03T07:00:00.001Z' }));
    await repo.insert(schedule('sch_disabled', { enabled: false, nextRunAt: '2026-03-03T04:00:00.000Z' }));
    await repo.insert(schedule('sch_never', { nextRunAt: null }));
    const now = '2026-03-03T07:00:00.000Z';
    expect((await repo.findDue(now, 10)).map((s) => s._id)).toEqual(['sch_early', 'sch_late', 'sch_exact']);
    expect((await repo.findDue(now, 2)).map((s) => s._id)).toEqual(['sch_early', 'sch_late']);
  });

  it('claims a run once: two racing claims of the value read, exactly one wins', async () => {
    await repo.insert(schedule('sch_1'));
    const [read] = await repo.findDue('2026-03-03T06:00:30.000Z', 10);
    expect(read?._id).toBe('sch_1');
    const results = await Promise.all([
      repo.claimDue(read as ScheduleDoc, '2026-03-04T06:00:00.000Z', '2026-03-03T06:00:30.000Z'),
      repo.claimDue(read as ScheduleDoc, '2026-03-04T06:00:00.000Z', '2026-03-03T06:00:30.000Z'),
    ]);
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ nextRunAt: '2026-03-04T06:00:00.000Z', lastRunAt: '2026-03-03T06:00:30.000Z', runCount: 1 });
    const stored = await repo.findOwned('org_a', 'sch_1');
    expect(stored).toMatchObject({ runCount: 1, nextRunAt: '2026-03-04T06:00:00.000Z', updatedAt: '2026-03-03T06:00:30.000Z' });
    // The run is no longer due, and a claim from the stale read changes nothing.
    expect(await repo.findDue('2026-03-03T06:00:30.000Z', 10)).toEqual([]);
    expect(await repo.claimDue(read as ScheduleDoc, '2026-03-05T06:00:00.000Z', '2026-03-03T06:01:00.000Z')).toBeNull();
    expect((await repo.findOwned('org_a', 'sch_1'))?.runCount).toBe(1);
  });

  it('five racing schedulers over the same due list fire each run once', async () => {
    for (let i = 0; i < 4; i += 1) await repo.insert(schedule(`sch_${i}`, { nextRunAt: `2026-03-03T06:0${i}:00.000Z` }));
    const now = '2026-03-03T06:30:00.000Z';
    const fired = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const won: string[] = [];
        for (const due of await repo.findDue(now, 10)) if (await repo.claimDue(due, '2026-03-04T06:00:00.000Z', now)) won.push(due._id);
        return won;
      }),
    );
    expect(fired.flat().sort()).toEqual(['sch_0', 'sch_1', 'sch_2', 'sch_3']);
    for (let i = 0; i < 4; i += 1) expect((await repo.findOwned('org_a', `sch_${i}`))?.runCount).toBe(1);
  });

  it('does not claim a run of a schedule disabled after it was read', async () => {
    await repo.insert(schedule('sch_1'));
    const [read] = await repo.findDue('2026-03-03T06:00:00.000Z', 10);
    await repo.update('org_a', 'sch_1', { enabled: false, updatedAt: '2026-03-03T06:00:00.000Z' });
    expect(await repo.claimDue(read as ScheduleDoc, '2026-03-04T06:00:00.000Z', '2026-03-03T06:00:00.000Z')).toBeNull();
    expect(await repo.findOwned('org_a', 'sch_1')).toMatchObject({ runCount: 0, lastRunAt: null });
  });

  it('records the job of a run, or its error, keeping the other fields', async () => {
    await repo.insert(schedule('sch_1'));
    const error = { code: 'INSUFFICIENT_CREDITS', message: 'no credits', at: '2026-03-03T06:00:00.000Z' };
    await repo.recordRunError('sch_1', error);
    expect(await repo.findOwned('org_a', 'sch_1')).toMatchObject({ lastError: error, lastJobId: null, enabled: true });
    await repo.recordRunJob('sch_1', 'job_1');
    expect(await repo.findOwned('org_a', 'sch_1')).toMatchObject({ lastError: null, lastJobId: 'job_1', cron: '0 6 * * *' });
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new ScheduleRepository(store);
      await plans.init();
      await plans.findOwned('org_a', 'sch_1');
      await plans.listPage({ organizationId: 'org_a', projectId: 'prj_1' }, { offset: 0, limit: 20 });
      await plans.update('org_a', 'sch_1', { enabled: false, updatedAt: T0 });
      await plans.findDue(T0, 50);
      await plans.claimDue(schedule('sch_1'), null, T0);
      await plans.recordRunJob('sch_1', 'job_1');
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual(['_id', 'org_project_created_id', 'org_project_created_id', '_id', 'due', '_id', '_id']);
    });
});
