import { describeOnEachStore } from '@crawl/testkit/each-store';
import { beforeEach, expect, it } from 'vitest';
import { DeliveryRepository } from './delivery-repository.ts';
import { indexesUsed, recordQueryPlans, unservedQueries } from '../../testing/query-plans.ts';
import type { AttemptDoc, DeliveryDoc } from './webhook-model.ts';

const T0 = '2026-03-02T08:00:00.000Z';
const LEASE = '2026-03-02T08:10:00.000Z';

function delivery(id: string, extra: Partial<DeliveryDoc> = {}): DeliveryDoc {
  return {
    _id: id,
    organizationId: 'org_a',
    projectId: 'prj_1',
    endpointId: 'whk_1',
    eventId: `evt_${id}`,
    eventType: 'job.completed',
    body: '{}',
    status: 'pending',
    attempts: [],
    attemptCount: 0,
    cycleAttempts: 0,
    replay: false,
    nextAttemptAt: T0,
    claim: null,
    leaseUntil: null,
    lastError: null,
    deliveredAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  };
}

const attempt = (n: number, statusCode: number | null): AttemptDoc => ({
  attempt: n,
  at: T0,
  statusCode,
  latencyMs: 5,
  error: statusCode === 200 ? null : 'boom',
  responseBody: null,
  replay: false,
});

describeOnEachStore('DeliveryRepository', (open, backend) => {
  let repo: DeliveryRepository;

  beforeEach(async () => {
    repo = new DeliveryRepository(await open());
    await repo.init();
  });

  it('keeps one delivery per endpoint and event', async () => {
    expect(await repo.insertOnce(delivery('whd_1', { eventId: 'evt_x' }))).toBe(true);
    const racing = await Promise.all([repo.insertOnce(delivery('whd_2', { eventId: 'evt_x' })), repo.insertOnce(delivery('whd_3', { eventId: 'evt_x' }))]);
    expect(racing).toEqual([false, false]);
    expect(await repo.insertOnce(delivery('whd_4', { eventId: 'evt_x', endpointId: 'whk_2' }))).toBe(true);
    expect((await repo.listForEndpoint('org_a', 'whk_1', { offset: 0, limit: 10 })).items.map((d) => d._id)).toEqual(['whd_1']);
  });

  it("lists an endpoint's log newest first with status filter, paging and total, only within the organization", async () => {
    await repo.insert(delivery('whd_a', { createdAt: '2026-03-02T08:00:01.000Z', status: 'delivered' }));
    await repo.insert(delivery('whd_b', { createdAt: '2026-03-02T08:00:02.000Z', status: 'failed' }));
    await repo.insert(delivery('whd_c', { createdAt: '2026-03-02T08:00:03.000Z' }));
    await repo.insert(delivery('whd_d', { createdAt: '2026-03-02T08:00:03.000Z', status: 'failed' }));
    await repo.insert(delivery('whd_other_endpoint', { endpointId: 'whk_2' }));
    await repo.insert(delivery('whd_other_org', { organizationId: 'org_b' }));
    const page = await repo.listForEndpoint('org_a', 'whk_1', { offset: 1, limit: 2 });
    expect(page.items.map((d) => d._id)).toEqual(['whd_c', 'whd_b']);
    expect(page.total).toBe(4);
    const failed = await repo.listForEndpoint('org_a', 'whk_1', { status: 'failed', offset: 0, limit: 10 });
    expect(failed).toMatchObject({ total: 2 });
    expect(failed.items.map((d) => d._id)).toEqual(['whd_d', 'whd_b']);
    expect(await repo.listForEndpoint('org_b', 'whk_2', { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_a')).toMatchObject({ _id: 'whd_a' });
    expect(await repo.findOwned('org_b', 'whk_1', 'whd_a')).toBeNull();
    expect(await repo.findOwned('org_a', 'whk_2', 'whd_a')).toBeNull();
  });

  it('finds pending deliveries due now, earliest first, leaving out saturated organizations', async () => {
    await repo.insert(delivery('whd_2', { nextAttemptAt: '2026-03-02T07:00:00.000Z' }));
    await repo.insert(delivery('whd_1', { nextAttemptAt: '2026-03-02T07:00:00.000Z' }));
    await repo.insert(delivery('whd_b', { organizationId: 'org_b', nextAttemptAt: '2026-03-02T07:30:00.000Z' }));
    await repo.insert(delivery('whd_now', { nextAttemptAt: T0 }));
    await repo.insert(delivery('whd_later', { nextAttemptAt: '2026-03-02T08:00:00.001Z' }));
    await repo.insert(delivery('whd_sent', { status: 'delivered', nextAttemptAt: null }));
    await repo.insert(delivery('whd_sending', { status: 'sending', nextAttemptAt: '2026-03-02T06:00:00.000Z' }));
    expect((await repo.findDue(T0, 10)).map((d) => d._id)).toEqual(['whd_1', 'whd_2', 'whd_b', 'whd_now']);
    expect((await repo.findDue(T0, 2)).map((d) => d._id)).toEqual(['whd_1', 'whd_2']);
    expect((await repo.findDue(T0, 10, ['org_a'])).map((d) => d._id)).toEqual(['whd_b']);
  });

  it('leases a due delivery exclusively: of two racing claims one wins, and only its token may record the attempt', async () => {
    await repo.insert(delivery('whd_1'));
    const [due] = await repo.findDue(T0, 10);
    const [a, b] = await Promise.all([repo.claim(due as DeliveryDoc, 'claim-a', LEASE, T0), repo.claim(due as DeliveryDoc, 'claim-b', LEASE, T0)]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    const winner = a ? 'claim-a' : 'claim-b';
    const loser = a ? 'claim-b' : 'claim-a';
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_1')).toMatchObject({ status: 'sending', claim: winner, leaseUntil: LEASE });
    expect(await repo.findDue(T0, 10)).toEqual([]);
    expect(await repo.countInFlight('org_a')).toBe(1);
    expect(await repo.countInFlight('org_b')).toBe(0);

    expect(await repo.startAttempt('whd_1', loser, '2026-03-02T08:20:00.000Z')).toBeNull();
    expect(
      await repo.recordAttempt('whd_1', loser, attempt(1, 200), { status: 'delivered', nextAttemptAt: null, lastError: null, deliveredAt: T0 }, T0),
    ).toBeNull();
    expect(await repo.startAttempt('whd_1', winner, '2026-03-02T08:20:00.000Z')).toMatchObject({ leaseUntil: '2026-03-02T08:20:00.000Z' });
    const recorded = await repo.recordAttempt(
      'whd_1',
      winner,
      attempt(1, 500),
      { status: 'pending', nextAttemptAt: '2026-03-02T08:00:30.000Z', lastError: 'HTTP 500' },
      '2026-03-02T08:00:01.000Z',
    );
    expect(recorded).toMatchObject({
      status: 'pending',
      claim: null,
      leaseUntil: null,
      attemptCount: 1,
      cycleAttempts: 1,
      nextAttemptAt: '2026-03-02T08:00:30.000Z',
      lastError: 'HTTP 500',
      updatedAt: '2026-03-02T08:00:01.000Z',
    });
    expect(recorded?.attempts).toEqual([attempt(1, 500)]);
    // The token is spent: recording again with it changes nothing.
    expect(await repo.recordAttempt('whd_1', winner, attempt(2, 200), { status: 'delivered', nextAttemptAt: null, lastError: null }, T0)).toBeNull();
    expect(await repo.countInFlight('org_a')).toBe(0);
  });

  it('a claim from a stale read (the delivery was retried meanwhile) loses', async () => {
    await repo.insert(delivery('whd_1'));
    const [stale] = await repo.findDue(T0, 10);
    await repo.claim(stale as DeliveryDoc, 'c1', LEASE, T0);
    await repo.recordAttempt('whd_1', 'c1', attempt(1, 500), { status: 'pending', nextAttemptAt: '2026-03-02T07:59:00.000Z', lastError: 'HTTP 500' }, T0);
    expect(await repo.claim(stale as DeliveryDoc, 'c2', LEASE, T0)).toBeNull();
    const [fresh] = await repo.findDue(T0, 10);
    expect(await repo.claim(fresh as DeliveryDoc, 'c3', LEASE, T0)).toMatchObject({ claim: 'c3' });
  });

  it('an expired lease makes the delivery due again and voids the old token; a live lease stays', async () => {
    await repo.insert(
      delivery('whd_expired', { status: 'sending', claim: 'old', leaseUntil: '2026-03-02T07:59:59.999Z', nextAttemptAt: '2026-03-02T07:00:00.000Z' }),
    );
    await repo.insert(delivery('whd_live', { status: 'sending', claim: 'live', leaseUntil: '2026-03-02T08:00:00.000Z' }));
    expect(await repo.releaseExpiredLeases(T0)).toBe(1);
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_expired')).toMatchObject({ status: 'pending', claim: null, leaseUntil: null, nextAttemptAt: T0 });
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_live')).toMatchObject({ status: 'sending', claim: 'live' });
    expect(await repo.startAttempt('whd_expired', 'old', LEASE)).toBeNull();
    expect((await repo.findDue(T0, 10)).map((d) => d._id)).toEqual(['whd_expired']);
  });

  it('gives a claim back when enqueueing failed', async () => {
    await repo.insert(delivery('whd_1'));
    await repo.claim(delivery('whd_1'), 'c1', LEASE, T0);
    await repo.releaseClaim('whd_1', 'other');
    expect((await repo.findOwned('org_a', 'whk_1', 'whd_1'))?.status).toBe('sending');
    await repo.releaseClaim('whd_1', 'c1');
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_1')).toMatchObject({ status: 'pending', claim: null, leaseUntil: null, nextAttemptAt: T0 });
  });

  it('ends a claimed delivery unsent', async () => {
    await repo.insert(delivery('whd_1'));
    await repo.claim(delivery('whd_1'), 'c1', LEASE, T0);
    await repo.failUnsent('whd_1', 'c1', 'endpoint deleted', '2026-03-02T08:00:05.000Z');
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_1')).toMatchObject({
      status: 'failed',
      claim: null,
      nextAttemptAt: null,
      lastError: 'endpoint deleted',
      attemptCount: 0,
    });
  });

  it('re-arms a finished or waiting delivery for replay, never one in flight nor another organization', async () => {
    await repo.insert(delivery('whd_done', { status: 'delivered', nextAttemptAt: null, cycleAttempts: 8, attemptCount: 8 }));
    await repo.insert(delivery('whd_sending', { status: 'sending', claim: 'c', leaseUntil: LEASE }));
    const at = '2026-03-02T09:00:00.000Z';
    expect(await repo.rearmForReplay('org_b', 'whd_done', at)).toBeNull();
    expect(await repo.rearmForReplay('org_a', 'whd_sending', at)).toBeNull();
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_sending')).toMatchObject({ status: 'sending', claim: 'c' });
    expect(await repo.rearmForReplay('org_a', 'whd_done', at)).toMatchObject({
      status: 'pending',
      nextAttemptAt: at,
      cycleAttempts: 0,
      attemptCount: 8,
      replay: true,
      updatedAt: at,
    });
  });

  it("fails only the disabled endpoint's pending deliveries", async () => {
    await repo.insert(delivery('whd_pending'));
    await repo.insert(delivery('whd_sending', { status: 'sending', claim: 'c' }));
    await repo.insert(delivery('whd_delivered', { status: 'delivered' }));
    await repo.insert(delivery('whd_other', { endpointId: 'whk_2' }));
    expect(await repo.failPendingForEndpoint('org_a', 'whk_1', 'endpoint disabled', '2026-03-02T09:00:00.000Z')).toBe(1);
    const statuses = async (endpointId: string) =>
      Object.fromEntries((await repo.listForEndpoint('org_a', endpointId, { offset: 0, limit: 10 })).items.map((d) => [d._id, d.status]));
    expect(await statuses('whk_1')).toEqual({ whd_pending: 'failed', whd_sending: 'sending', whd_delivered: 'delivered' });
    expect(await statuses('whk_2')).toEqual({ whd_other: 'pending' });
    expect(await repo.findOwned('org_a', 'whk_1', 'whd_pending')).toMatchObject({ nextAttemptAt: null, lastError: 'endpoint disabled' });
  });

  it("removes an endpoint's log only within the organization", async () => {
    await repo.insert(delivery('whd_1'));
    await repo.insert(delivery('whd_2'));
    await repo.insert(delivery('whd_other', { endpointId: 'whk_2' }));
    expect(await repo.removeForEndpoint('org_b', 'whk_1')).toBe(0);
    expect(await repo.removeForEndpoint('org_a', 'whk_1')).toBe(2);
    expect((await repo.listForEndpoint('org_a', 'whk_1', { offset: 0, limit: 10 })).total).toBe(0);
    expect((await repo.listForEndpoint('org_a', 'whk_2', { offset: 0, limit: 10 })).total).toBe(1);
  });

  it('prunes finished deliveries older than the cut-off, never pending or in-flight ones', async () => {
    const old = '2026-01-01T00:00:00.000Z';
    await repo.insert(delivery('whd_old_delivered', { status: 'delivered', updatedAt: old }));
    await repo.insert(delivery('whd_old_failed', { status: 'failed', updatedAt: old }));
    await repo.insert(delivery('whd_old_pending', { status: 'pending', updatedAt: old }));
    await repo.insert(delivery('whd_old_sending', { status: 'sending', updatedAt: old }));
    await repo.insert(delivery('whd_recent', { status: 'delivered', updatedAt: '2026-02-01T00:00:00.000Z' }));
    expect(await repo.pruneFinished('2026-02-01T00:00:00.000Z')).toBe(2);
    const left = (await repo.listForEndpoint('org_a', 'whk_1', { offset: 0, limit: 10 })).items.map((d) => d._id).sort();
    expect(left).toEqual(['whd_old_pending', 'whd_old_sending', 'whd_recent']);
  });

  if (backend === 'embedded')
    it('serves every operation from a declared index, sort included', async () => {
      const { store, queries } = recordQueryPlans(await open());
      const plans = new DeliveryRepository(store);
      await plans.init();
      await plans.releaseExpiredLeases(T0);
      await plans.findDue(T0, 50);
      await plans.findDue(T0, 50, ['org_b']);
      await plans.countInFlight('org_a');
      await plans.claim(delivery('whd_1'), 'c', LEASE, T0);
      await plans.listForEndpoint('org_a', 'whk_1', { offset: 0, limit: 20 });
      await plans.listForEndpoint('org_a', 'whk_1', { status: 'failed', offset: 0, limit: 20 });
      await plans.failPendingForEndpoint('org_a', 'whk_1', 'endpoint disabled', T0);
      await plans.pruneFinished(T0);
      expect(unservedQueries(queries)).toEqual([]);
      expect(indexesUsed(queries)).toEqual([
        'status_lease',
        'status_next_attempt_id',
        'status_next_attempt_id',
        'org_status',
        '_id',
        'org_endpoint_created_id',
        'org_endpoint_status_created_id',
        'org_endpoint_status_created_id',
        'org_endpoint_status_created_id',
        'org_endpoint_status_created_id',
        'status_updated',
      ]);
    });
});
