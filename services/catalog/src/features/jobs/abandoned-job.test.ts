import type { Reservation, ReserveBody } from '@crawl/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogHarness, type CatalogHarness } from '../../testing/catalog-harness.ts';
import { FakeBilling } from '../../testing/fake-billing.ts';

const abandonPath = (jobId: string) => `/internal/catalog/jobs/${jobId}/abandon-if-missing`;

/** A billing whose reconciler gives up on the job while catalog is still storing it (a slow create). */
class ReconcilerRacingBilling extends FakeBilling {
  abandonDuringReserve?: (jobId: string) => Promise<unknown>;
  override async reserve(body: ReserveBody): Promise<Reservation> {
    const reservation = await super.reserve(body);
    await this.abandonDuringReserve?.(body.jobId);
    return reservation;
  }
}

describe("billing's orphan check against catalog's jobs", () => {
  let h: CatalogHarness;
  let billing: ReconcilerRacingBilling;
  beforeAll(async () => {
    billing = new ReconcilerRacingBilling();
    h = await startCatalogHarness({ billing });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers the state of a job that exists, and "missing" for good for one that does not', async () => {
    const alice = h.user();
    const projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id as string;
    const created = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'search', targets: ['kept'] } });
    expect(created.status).toBe(201);
    const existing = await h.internal({ method: 'POST', url: abandonPath(created.body.data.id), from: 'billing' });
    expect(existing.status).toBe(200);
    expect(existing.body.data).toMatchObject({ exists: true, status: 'queued', organizationId: alice.organizationId });

    const ghost = await h.internal({ method: 'POST', url: abandonPath('job_never_created'), from: 'billing' });
    expect(ghost.body.data).toEqual({ exists: false });
    // Asking again is harmless.
    expect((await h.internal({ method: 'POST', url: abandonPath('job_never_created'), from: 'billing' })).body.data).toEqual({ exists: false });
    // Internal only: a user cannot mark jobs.
    expect((await h.request({ method: 'POST', url: abandonPath('job_x'), token: alice.token })).status).toBe(401);
  });

  it('a create that stores its job after billing gave up on it takes the job back: 503, no job, the hold released', async () => {
    const bob = h.user();
    const projectId = (await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'p' } })).body.data.id as string;
    const asked: Array<{ exists: boolean }> = [];
    billing.abandonDuringReserve = async (jobId) => asked.push((await h.internal({ method: 'POST', url: abandonPath(jobId), from: 'billing' })).body.data);
    try {
      const created = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: bob.token, body: { type: 'search', targets: ['late'] } });
      expect(created.status).toBe(503);
      expect(created.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(created.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(asked).toEqual([{ exists: false }]);
    } finally {
      delete billing.abandonDuringReserve;
    }
    const jobId = [...billing.reservations.keys()].at(-1) as string;
    expect(billing.releaseCalls.map((call) => call.jobId)).toContain(jobId);
    expect(billing.reservations.get(jobId)?.status).toBe('released');
    const listed = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: bob.token });
    expect(listed.body.meta.total).toBe(0);
    expect(listed.body.data).toEqual([]);
    expect((await h.request({ method: 'GET', url: `/jobs/${jobId}`, token: bob.token })).status).toBe(404);

    // The next create of the same organization is unaffected.
    const next = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: bob.token, body: { type: 'search', targets: ['on time'] } });
    expect(next.status).toBe(201);
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: bob.token })).body.meta.total).toBe(1);
  });
});
