import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { productRecord } from '../../testing/result-records.ts';

describe.each(testBackends())('charged and uncharged targets ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const createJob = async (targets: string[]) =>
    (await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'details', targets } })).body.data as {
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

  it('shows each target as charged or not and why, and settles only the charged ones', async () => {
    const job = await createJob(['B000000001', 'B000000002', 'B000000003']);
    const queued = await getJob(job.id);
    expect(queued.charges).toEqual({ chargedTargets: 0, unchargedTargets: 0 });
    expect(queued.targets[0]).toEqual({ value: 'B000000001', status: 'pending', asin: 'B000000001' });

    await h.report(job.id, 0, { status: 'success', items: [productRecord({ price: { amount: 1, currency: 'USD', raw: '$1.00' } })] });
    await h.report(job.id, 1, {
      status: 'success',
      uncharged: 'partial',
      message: 'price missing on 1 of 1 records',
      items: [productRecord({ asin: 'B000000002', quality: { status: 'partial', missing: ['price'] }, missingFields: ['price'] })],
    });
    await h.report(job.id, 2, { status: 'failed', reason: 'blocked', blockKind: 'challenge', message: 'challenge (HTTP 200) after 4 attempts', items: [] });

    const done = await getJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.targets).toEqual([
      { value: 'B000000001', status: 'success', asin: 'B000000001', resultCount: 1, charged: true },
      {
        value: 'B000000002',
        status: 'success',
        asin: 'B000000002',
        resultCount: 1,
        charged: false,
        uncharged: 'partial',
        message: 'price missing on 1 of 1 records',
      },
      {
        value: 'B000000003',
        status: 'failed',
        asin: 'B000000003',
        resultCount: 0,
        reason: 'blocked',
        blockKind: 'challenge',
        message: 'challenge (HTTP 200) after 4 attempts',
      },
    ]);
    expect(done.charges).toEqual({ chargedTargets: 1, unchargedTargets: 1 });
    // The uncharged target's records are delivered like any other's.
    expect(done.resultCount).toBe(2);

    expect(h.billing.settlementsFor(job.id)).toEqual([
      { organizationId: alice.organizationId, jobId: job.id, succeededTargets: 1, failedTargets: 1, cancelledTargets: 0, unchargedTargets: 1 },
    ]);
    expect(h.billing.account(alice.organizationId)).toMatchObject({ available: 1000 - 2, reserved: 0, spent: 2 });
  });

  it('completes a job whose only success is uncharged, charging nothing', async () => {
    const job = await createJob(['B000000001']);
    await h.report(job.id, 0, { status: 'success', uncharged: 'location_unverified', message: 'shown for 10001, not 10115', items: [productRecord()] });
    const done = await getJob(job.id);
    expect(done).toMatchObject({ status: 'completed', charges: { chargedTargets: 0, unchargedTargets: 1 } });
    expect(done.targets[0]).toMatchObject({ charged: false, uncharged: 'location_unverified', message: 'shown for 10001, not 10115' });
    expect(h.billing.settlementsFor(job.id)).toEqual([
      { organizationId: alice.organizationId, jobId: job.id, succeededTargets: 0, failedTargets: 0, cancelledTargets: 0, unchargedTargets: 1 },
    ]);
    expect(h.billing.account(alice.organizationId)).toMatchObject({ available: 1000, spent: 0 });
  });

  it('keeps only what fits the status: no block kind but on blocked, no charge reason on a failure, no message on a charged success', async () => {
    const job = await createJob(['B000000001', 'B000000002', 'B000000003']);
    await h.report(job.id, 0, { status: 'success', message: 'all good', items: [productRecord()] });
    await h.report(job.id, 1, { status: 'failed', reason: 'unrecognized_page', blockKind: 'captcha', message: 'no product markers', items: [] });
    await h.report(job.id, 2, { status: 'failed', reason: 'timeout', uncharged: 'partial', items: [] });
    const done = await getJob(job.id);
    expect(done.targets).toEqual([
      { value: 'B000000001', status: 'success', asin: 'B000000001', resultCount: 1, charged: true },
      { value: 'B000000002', status: 'failed', asin: 'B000000002', resultCount: 0, reason: 'unrecognized_page', message: 'no product markers' },
      { value: 'B000000003', status: 'failed', asin: 'B000000003', resultCount: 0, reason: 'timeout' },
    ]);
    expect(done.charges).toEqual({ chargedTargets: 1, unchargedTargets: 0 });
  });
});
