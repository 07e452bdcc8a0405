import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { AuditRepository, type AuditDoc } from './audit-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';

function event(id: string, extra: Partial<AuditDoc> = {}): AuditDoc {
  return {
    _id: id,
    organizationId: 'org_a',
    actorUserId: 'usr_1',
    action: 'project.create',
    resourceType: 'project',
    resourceId: 'prj_1',
    requestId: null,
    metadata: {},
    createdAt: '2026-03-02T08:00:00.000Z',
    ...extra,
  };
}

describeOnEachStore('AuditRepository', (open, backend) => {
  let repo: AuditRepository;

  beforeEach(async () => {
    repo = new AuditRepository(await open());
    await repo.init();
  });

  it('lists an organization newest first (id breaks ties) with paging, action filter and total', async () => {
    await repo.insert(event('aud_1', { createdAt: '2026-03-02T08:00:01.000Z' }));
    await repo.insert(event('aud_2', { createdAt: '2026-03-02T08:00:02.000Z', action: 'job.create' }));
    await repo.insert(event('aud_4', { createdAt: '2026-03-02T08:00:03.000Z' }));
    await repo.insert(event('aud_3', { createdAt: '2026-03-02T08:00:03.000Z', action: 'job.create', metadata: { scheduleId: 'sch_1' } }));
    await repo.insert(event('aud_other', { organizationId: 'org_b', createdAt: '2026-03-02T09:00:00.000Z' }));

    const all = await repo.list('org_a', { offset: 0, limit: 10 });
    expect(all.items.map((e) => e._id)).toEqual(['aud_4', 'aud_3', 'aud_2', 'aud_1']);
    expect(all.total).toBe(4);
    const page = await repo.list('org_a', { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4 });
    expect(page.items.map((e) => e._id)).toEqual(['aud_3', 'aud_2']);
    const jobs = await repo.list('org_a', { action: 'job.create', offset: 0, limit: 10 });
    expect(jobs.items.map((e) => e._id)).toEqual(['aud_3', 'aud_2']);
    expect(jobs.total).toBe(2);
    expect(jobs.items[0]?.metadata).toEqual({ scheduleId: 'sch_1' });
    expect((await repo.list('org_b', { offset: 0, limit: 10 })).items.map((e) => e._id)).toEqual(['aud_other']);
    expect(await repo.list('org_c', { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new AuditRepository(store);
      await plans.init();
      await plans.list('org_a', { offset: 0, limit: 20 });
      await plans.list('org_a', { action: 'job.create', offset: 20, limit: 20 });
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual(['org_created_id', 'org_created_id', 'org_action_created_id', 'org_action_created_id']);
    });
});
