import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { EndpointRepository } from './endpoint-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';
import type { EndpointDoc, SealedSecret } from './webhook-model.ts';

const T0 = '2026-03-02T08:00:00.000Z';

function endpoint(id: string, extra: Partial<EndpointDoc> = {}): EndpointDoc {
  return {
    _id: id,
    organizationId: 'org_a',
    projectId: 'prj_1',
    url: 'https://hooks.example.com/a',
    description: '',
    events: ['job.completed', 'job.failed', 'job.cancelled', 'schedule.failed'],
    enabled: true,
    disabledReason: null,
    secrets: [{ sealed: 'sealed-0', createdAt: T0, expiresAt: null }],
    failingSince: null,
    consecutiveFailures: 0,
    lastSuccessAt: null,
    lastFailureAt: null,
    createdBy: 'usr_1',
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  };
}

const secret = (sealed: string, expiresAt: string | null = null): SealedSecret => ({ sealed, createdAt: T0, expiresAt });

describeOnEachStore('EndpointRepository', (open, backend) => {
  let repo: EndpointRepository;

  beforeEach(async () => {
    repo = new EndpointRepository(await open());
    await repo.init();
  });

  it('finds, updates and removes an endpoint only within its organization', async () => {
    await repo.insert(endpoint('whk_1'));
    expect(await repo.findOwned('org_a', 'whk_1')).toMatchObject({ _id: 'whk_1', url: 'https://hooks.example.com/a' });
    expect(await repo.findOwned('org_b', 'whk_1')).toBeNull();
    expect(await repo.update('org_b', 'whk_1', { url: 'https://evil.example.com/', updatedAt: T0 })).toBeNull();
    expect(await repo.replaceSecrets('org_b', 'whk_1', 'sealed-0', [secret('evil')], T0)).toBeNull();
    expect(await repo.remove('org_b', 'whk_1')).toBe(false);
    expect(await repo.findOwned('org_a', 'whk_1')).toMatchObject({ url: 'https://hooks.example.com/a', secrets: [secret('sealed-0')] });

    const updated = await repo.update('org_a', 'whk_1', { description: 'mine', enabled: false, updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(updated).toMatchObject({ description: 'mine', enabled: false, url: 'https://hooks.example.com/a', updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(await repo.remove('org_a', 'whk_1')).toBe(true);
    expect(await repo.findOwned('org_a', 'whk_1')).toBeNull();
  });

  it('lists and counts a project newest first, never another project or organization', async () => {
    await repo.insert(endpoint('whk_a', { createdAt: '2026-03-01T00:00:00.000Z' }));
    await repo.insert(endpoint('whk_b', { createdAt: '2026-03-03T00:00:00.000Z' }));
    await repo.insert(endpoint('whk_c', { createdAt: '2026-03-03T00:00:00.000Z' }));
    await repo.insert(endpoint('whk_p2', { projectId: 'prj_2' }));
    await repo.insert(endpoint('whk_o2', { organizationId: 'org_b' }));
    expect((await repo.listForProject('org_a', 'prj_1')).map((e) => e._id)).toEqual(['whk_c', 'whk_b', 'whk_a']);
    expect(await repo.countForProject('org_a', 'prj_1')).toBe(3);
    expect(await repo.countForProject('org_b', 'prj_1')).toBe(1);
    expect(await repo.countForProject('org_b', 'prj_2')).toBe(0);
  });

  it("picks the project's enabled endpoints subscribed to an event type", async () => {
    await repo.insert(endpoint('whk_all'));
    await repo.insert(endpoint('whk_failed_only', { events: ['job.failed'] }));
    await repo.insert(endpoint('whk_disabled', { enabled: false }));
    await repo.insert(endpoint('whk_other_project', { projectId: 'prj_2' }));
    await repo.insert(endpoint('whk_other_org', { organizationId: 'org_b' }));
    const ids = async (type: 'job.completed' | 'job.failed' | 'schedule.failed') => (await repo.subscribers('org_a', 'prj_1', type)).map((e) => e._id).sort();
    expect(await ids('job.completed')).toEqual(['whk_all']);
    expect(await ids('job.failed')).toEqual(['whk_all', 'whk_failed_only']);
    expect((await repo.subscribers('org_b', 'prj_1', 'job.completed')).map((e) => e._id)).toEqual(['whk_other_org']);
  });

  it('replaces the secrets only while the current one is the one read: of two racing rotations one wins', async () => {
    await repo.insert(endpoint('whk_1'));
    const results = await Promise.all([
      repo.replaceSecrets('org_a', 'whk_1', 'sealed-0', [secret('sealed-x'), secret('sealed-0', '2026-03-03T08:00:00.000Z')], T0),
      repo.replaceSecrets('org_a', 'whk_1', 'sealed-0', [secret('sealed-y'), secret('sealed-0', '2026-03-03T08:00:00.000Z')], T0),
    ]);
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    const stored = await repo.findOwned('org_a', 'whk_1');
    expect(stored?.secrets).toEqual(winners[0]?.secrets);
    expect(stored?.secrets.map((s) => s.sealed)).toContain('sealed-0');
    expect(await repo.replaceSecrets('org_a', 'whk_1', 'sealed-0', [secret('sealed-z')], T0)).toBeNull();
  });

  it('keeps the start of a failure streak, counts failures, and a success resets the streak', async () => {
    await repo.insert(endpoint('whk_1'));
    expect(await repo.recordFailure('whk_1', '2026-03-02T08:00:00.000Z')).toMatchObject({ failingSince: '2026-03-02T08:00:00.000Z', consecutiveFailures: 1 });
    await Promise.all([repo.recordFailure('whk_1', '2026-03-02T08:01:00.000Z'), repo.recordFailure('whk_1', '2026-03-02T08:01:00.000Z')]);
    expect(await repo.findOwned('org_a', 'whk_1')).toMatchObject({
      failingSince: '2026-03-02T08:00:00.000Z',
      consecutiveFailures: 3,
      lastFailureAt: '2026-03-02T08:01:00.000Z',
    });
    await repo.recordSuccess('whk_1', '2026-03-02T08:02:00.000Z');
    expect(await repo.findOwned('org_a', 'whk_1')).toMatchObject({ failingSince: null, consecutiveFailures: 0, lastSuccessAt: '2026-03-02T08:02:00.000Z' });
    expect(await repo.recordFailure('whk_1', '2026-03-02T08:03:00.000Z')).toMatchObject({ failingSince: '2026-03-02T08:03:00.000Z', consecutiveFailures: 1 });
    expect(await repo.recordFailure('whk_gone', T0)).toBeNull();
  });

  it('disables an enabled endpoint once: of two racing disables one wins', async () => {
    await repo.insert(endpoint('whk_1'));
    const reason = { code: 'gone' as const, message: 'gone', at: '2026-03-02T09:00:00.000Z' };
    const results = await Promise.all([repo.disable('whk_1', reason), repo.disable('whk_1', { ...reason, code: 'failing' as const })]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const stored = await repo.findOwned('org_a', 'whk_1');
    expect(stored).toMatchObject({ enabled: false, updatedAt: '2026-03-02T09:00:00.000Z' });
    expect(stored?.disabledReason).toEqual(results.find((r) => r !== null)?.disabledReason);
    expect(await repo.disable('whk_1', reason)).toBeNull();
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new EndpointRepository(store);
      await plans.init();
      await plans.findOwned('org_a', 'whk_1');
      await plans.countForProject('org_a', 'prj_1');
      await plans.listForProject('org_a', 'prj_1');
      await plans.subscribers('org_a', 'prj_1', 'job.completed');
      await plans.replaceSecrets('org_a', 'whk_1', 'sealed-0', [], T0);
      await plans.recordFailure('whk_1', T0);
      await plans.disable('whk_1', { code: 'gone', message: 'gone', at: T0 });
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual(['_id', 'org_project_created_id', 'org_project_created_id', 'org_project_created_id', '_id', '_id', '_id', '_id']);
    });
});
