import { ledgerProblems } from '@crawl/billing/testing/billing-fixture';
import { productRecord } from '@crawl/catalog/testing/result-records';
import { CatalogPaths, type ReportTargetBody } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { registerAdmin, startTestService, type TestService } from '@crawl/server/testing';
import { BillingClient } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A success delivered without charge, end to end with real billing: the worker's report, the job
 * view, the settlement's credits, the ledger entries, and the month's usage.
 */
describe('charged and uncharged targets through the gateway, with real billing', () => {
  let svc: TestService;
  const clock = new ManualClock('2026-03-02T08:00:00.000Z');

  beforeAll(async () => {
    svc = await startTestService({ clock, env: { SIGNUP_BONUS_CREDITS: '1000', SCHEDULER_TICK_MS: '3600000' } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const worker = async (url: string, body: ReportTargetBody | Record<string, never>) => {
    const res = await svc.process.app.inject({
      method: 'POST',
      url,
      headers: { ...svc.internalHeaders('crawler-worker'), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('shows each target charged or not and why, captures credits for the charged one only, and counts both in the ledger and usage', async () => {
    const alice = await svc.registerUser();
    const admin = await registerAdmin(svc);
    const projectId = (await svc.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'charges' } })).body.data.id;
    const created = await svc.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: alice.token,
      body: { type: 'details', targets: ['B000000001', 'B000000002', 'B000000003'], config: { require: ['price'] } },
    });
    expect(created.status).toBe(201);
    const job = created.body.data;
    expect(job.creditsReserved).toBe(6);

    // The crawler's side, driven by hand: a complete record, a partial one, a challenge page.
    for (const index of [0, 1, 2]) await worker(CatalogPaths.claimTarget(job.id, index), {});
    clock.advance(1000);
    await worker(CatalogPaths.reportTarget(job.id, 0), {
      status: 'success',
      items: [productRecord({ title: 'One', price: { amount: 9.99, currency: 'USD', raw: '$9.99' } })],
    });
    await worker(CatalogPaths.reportTarget(job.id, 1), {
      status: 'success',
      uncharged: 'partial',
      message: 'price missing on 1 of 1 records',
      items: [productRecord({ asin: 'B000000002', title: 'Two', quality: { status: 'partial', missing: ['price'] }, missingFields: ['price'] })],
    });
    await worker(CatalogPaths.reportTarget(job.id, 2), {
      status: 'failed',
      reason: 'blocked',
      blockKind: 'challenge',
      message: 'challenge (HTTP 200) after 4 attempts',
      items: [],
    });

    const view = (await svc.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token })).body.data;
    expect(view).toMatchObject({ status: 'completed', resultCount: 2, charges: { chargedTargets: 1, unchargedTargets: 1 } });
    expect(view.targets).toEqual([
      { value: 'B000000001', asin: 'B000000001', status: 'success', resultCount: 1, charged: true },
      {
        value: 'B000000002',
        asin: 'B000000002',
        status: 'success',
        resultCount: 1,
        charged: false,
        uncharged: 'partial',
        message: 'price missing on 1 of 1 records',
      },
      {
        value: 'B000000003',
        asin: 'B000000003',
        status: 'failed',
        resultCount: 0,
        reason: 'blocked',
        blockKind: 'challenge',
        message: 'challenge (HTTP 200) after 4 attempts',
      },
    ]);
    // The list carries the same job.
    const listed = (await svc.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token })).body.data[0];
    expect(listed.charges).toEqual({ chargedTargets: 1, unchargedTargets: 1 });
    expect(listed.targets[1]).toMatchObject({ charged: false, uncharged: 'partial' });

    // Credits: 2 captured for the charged target; the uncharged and the blocked ones released.
    const balance = async () =>
      (await svc.request({ method: 'GET', url: `/admin/organizations/${alice.organizationId}/usage`, token: admin.token })).body.data.balance;
    expect(await balance()).toEqual({ available: 998, reserved: 0, spent: 2, granted: 1000 });

    const entries = (await svc.request({ method: 'GET', url: `/admin/organizations/${alice.organizationId}/ledger`, token: admin.token })).body.data;
    const ofJob = entries.filter((entry: { jobId?: string }) => entry.jobId === job.id);
    expect(ofJob.map((entry: { kind: string; amount: number; charges?: unknown }) => [entry.kind, entry.amount, entry.charges])).toEqual([
      ['release', 4, { chargedTargets: 1, unchargedTargets: 1 }],
      ['capture', 2, { chargedTargets: 1, unchargedTargets: 1 }],
      ['reservation', 6, undefined],
    ]);

    // Settling again (a repeated call) changes nothing.
    const again = await new BillingClient(svc.context('catalog').client('billing')).settle({
      organizationId: alice.organizationId,
      jobId: job.id,
      succeededTargets: 3,
      failedTargets: 0,
      cancelledTargets: 0,
    });
    expect(again).toEqual({ jobId: job.id, captured: 2, released: 4, alreadySettled: true });
    expect(await balance()).toEqual({ available: 998, reserved: 0, spent: 2, granted: 1000 });

    const usage = (await svc.request({ method: 'GET', url: '/usage', token: alice.token })).body.data;
    expect(usage).toMatchObject({ month: '2026-03', credits: { available: 998, reserved: 0 }, charges: { chargedTargets: 1, unchargedTargets: 1 } });
    const daily = (await svc.request({ method: 'GET', url: '/usage/daily', token: alice.token })).body.data;
    expect(daily.days[1]).toEqual({ date: '2026-03-02', spent: 2, added: 1000, chargedTargets: 1, unchargedTargets: 1 });
    expect(daily.days.filter((day: { chargedTargets: number; unchargedTargets: number }) => day.chargedTargets + day.unchargedTargets > 0)).toHaveLength(1);
    expect(await ledgerProblems(svc.store('billing'), alice.organizationId)).toEqual([]);
  });
});
