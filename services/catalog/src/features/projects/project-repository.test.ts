import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { ProjectRepository, type ProjectDoc } from './project-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';

const T0 = '2026-03-02T08:00:00.000Z';

function project(id: string, extra: Partial<ProjectDoc> = {}): ProjectDoc {
  return { _id: id, organizationId: 'org_a', name: id, archived: false, createdBy: 'usr_1', createdAt: T0, updatedAt: T0, ...extra };
}

describeOnEachStore('ProjectRepository', (open, backend) => {
  let repo: ProjectRepository;

  beforeEach(async () => {
    repo = new ProjectRepository(await open());
    await repo.init();
  });

  it('finds and updates a project only within its organization', async () => {
    await repo.insert(project('prj_1'));
    expect(await repo.findOwned('org_a', 'prj_1')).toEqual(project('prj_1'));
    expect(await repo.findOwned('org_b', 'prj_1')).toBeNull();
    expect(await repo.update('org_b', 'prj_1', { name: 'stolen', updatedAt: '2026-03-02T09:00:00.000Z' })).toBeNull();
    expect((await repo.findOwned('org_a', 'prj_1'))?.name).toBe('prj_1');
    const updated = await repo.update('org_a', 'prj_1', { archived: true, updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(updated).toEqual({ ...project('prj_1'), archived: true, updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(await repo.update('org_a', 'prj_nope', { name: 'x', updatedAt: T0 })).toBeNull();
  });

  it("lists an organization's projects newest first (id breaks ties), optionally by archived state", async () => {
    await repo.insert(project('prj_a', { createdAt: '2026-03-01T00:00:00.000Z' }));
    await repo.insert(project('prj_b', { createdAt: '2026-03-03T00:00:00.000Z', archived: true }));
    await repo.insert(project('prj_c', { createdAt: '2026-03-03T00:00:00.000Z' }));
    await repo.insert(project('prj_other', { organizationId: 'org_b' }));
    const all = { offset: 0, limit: 100 };
    const ids = async (archived?: boolean) => (await repo.listPage({ organizationId: 'org_a', archived }, all)).projects.map((p) => p._id);
    expect(await ids()).toEqual(['prj_c', 'prj_b', 'prj_a']);
    expect(await ids(true)).toEqual(['prj_b']);
    expect(await ids(false)).toEqual(['prj_c', 'prj_a']);
    expect((await repo.listPage({ organizationId: 'org_b' }, all)).projects.map((p) => p._id)).toEqual(['prj_other']);
    expect(await repo.listPage({ organizationId: 'org_c' }, all)).toEqual({ projects: [], total: 0 });
  });

  it('pages the list and counts every match', async () => {
    for (const [index, id] of ['prj_1', 'prj_2', 'prj_3', 'prj_4', 'prj_5'].entries()) {
      await repo.insert(project(id, { createdAt: `2026-03-0${index + 1}T00:00:00.000Z`, archived: index % 2 === 0 }));
    }
    const page = await repo.listPage({ organizationId: 'org_a' }, { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 5, projects: [{ _id: 'prj_4' }, { _id: 'prj_3' }] });
    const archived = await repo.listPage({ organizationId: 'org_a', archived: true }, { offset: 0, limit: 1 });
    expect(archived).toMatchObject({ total: 3, projects: [{ _id: 'prj_5' }] });
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new ProjectRepository(store);
      await plans.init();
      await plans.findOwned('org_a', 'prj_1');
      await plans.listPage({ organizationId: 'org_a' }, { offset: 0, limit: 20 });
      await plans.listPage({ organizationId: 'org_a', archived: false }, { offset: 0, limit: 20 });
      await plans.update('org_a', 'prj_1', { name: 'x', updatedAt: T0 });
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual(['_id', 'org_created_id', 'org_created_id', 'org_archived_created_id', 'org_archived_created_id', '_id']);
    });
});
