/**
 * `config.deliveryZip` end to end in the all-in-one process: the crawler sets the postal code on its
 * session through the simulator's location widget (front page token, address-change POST, cookie),
 * and every record's `deliverTo` echoes the location its page showed.
 */
import { ADDRESS_CHANGE_PATH, createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { crawlEnv, signUpWithProject } from './crawling-service.ts';
import { call } from './http-call.ts';
import { spawnService, type SpawnedService } from './spawn-service.ts';

describe('delivery location (config.deliveryZip) through the all-in-one service', () => {
  let sim: Simulator;
  let service: SpawnedService;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 3 });
    service = await spawnService({ env: crawlEnv(sim, 'delivery-location-e2e-secret-long-enough-0123456789', { MAX_FETCH_ATTEMPTS: '2' }) });
    ({ token, projectId } = await signUpWithProject(service.url, 'delivery-location'));
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await sim?.close();
  });

  let lastJob: Record<string, unknown> = {};
  async function crawled(body: unknown): Promise<Array<Record<string, unknown>>> {
    const created = await call(service.url, 'POST', `/projects/${projectId}/jobs`, { token, body });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await vi.waitFor(
      async () => {
        const job = await call(service.url, 'GET', `/jobs/${id}`, { token });
        expect(job.body.data.status).toBe('completed');
        lastJob = job.body.data;
      },
      { timeout: 45_000, interval: 100 },
    );
    const results = await call(service.url, 'GET', `/jobs/${id}/results?pageSize=100`, { token });
    expect(results.status).toBe(200);
    return results.body.data.items;
  }

  it('sets the postal code on the crawl session; details and search records echo it', async () => {
    const details = await crawled({ type: 'details', targets: ['B0SIM00011', 'B0SIM00012'], config: { deliveryZip: '10001' } });
    expect(details.map((item) => item.deliverTo)).toEqual(['10001', '10001']);
    expect(details.map((item) => item.location)).toEqual([
      { requested: '10001', observed: '10001', verified: true },
      { requested: '10001', observed: '10001', verified: true },
    ]);
    expect(lastJob.charges).toEqual({ chargedTargets: 2, unchargedTargets: 0 });
    const search = await crawled({ type: 'search', targets: ['garden hose'], config: { deliveryZip: '10001', pages: 2 } });
    expect(search.length).toBeGreaterThan(20);
    expect(search.every((item) => item.deliverTo === '10001')).toBe(true);
    // One session, set once: the later targets reuse it.
    expect(sim.stats().byRoute['address-change']).toBe(1);

    const plain = await crawled({ type: 'details', targets: ['B0SIM00013'] });
    expect(plain[0]?.deliverTo).toBe('United States');
  });

  it('delivers anyway when the address change fails, with the location the page shows, unverified and not charged', async () => {
    sim.setFaults({ rules: [{ path: ADDRESS_CHANGE_PATH, fault: '503' }] });
    const items = await crawled({ type: 'details', targets: ['B0SIM00014'], config: { deliveryZip: '60601' } });
    expect(items[0]).toMatchObject({
      asin: 'B0SIM00014',
      deliverTo: 'United States',
      location: { requested: '60601', observed: 'United States', verified: false },
    });
    // The change was tried (and retried) against the failing endpoint, not skipped, and once more
    // on a second session after the page showed another location: 2 sessions × 2 tries.
    expect(sim.stats().faults['503']).toBe(4);
    expect(lastJob.charges).toEqual({ chargedTargets: 0, unchargedTargets: 1 });
    expect((lastJob.targets as Array<Record<string, unknown>>)[0]).toMatchObject({ status: 'success', charged: false, uncharged: 'location_unverified' });
    sim.setFaults({});
  });
});
