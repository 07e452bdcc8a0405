/**
 * Black box: the all-in-one service crawling a marketplace that answers with pages that are neither
 * what was asked for nor a known block (a promotion page, a sign-in page, an error page) and with
 * block pages the detector learned from real crawls. None may come back as a success, and none is
 * charged: the reservation goes back whole.
 */
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { crawlEnv, signUpWithProject } from './crawling-service.ts';
import { call } from './http-call.ts';
import { spawnService, type SpawnedService } from './spawn-service.ts';

interface TargetView {
  value: string;
  status: string;
  reason?: string;
  blockKind?: string;
  message?: string;
  charged?: boolean;
}

describe('pages that are not what was asked for (all-in-one, black box)', () => {
  let sim: Simulator;
  let service: SpawnedService;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'full', seed: 11 });
    service = await spawnService({
      env: crawlEnv(sim, 'page-recognition-e2e-secret-long-enough-0123456789', { CRAWL_CONCURRENCY: '2', MAX_FETCH_ATTEMPTS: '2' }),
    });
    ({ token, projectId } = await signUpWithProject(service.url, 'recognition'));
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await sim?.close();
  });

  async function finished(body: unknown): Promise<{ status: string; targets: TargetView[]; charges: unknown }> {
    const created = await call(service.url, 'POST', `/projects/${projectId}/jobs`, { token, body });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    let job: { status: string; targets: TargetView[]; charges: unknown } | undefined;
    await vi.waitFor(
      async () => {
        job = (await call(service.url, 'GET', `/jobs/${id}`, { token })).body.data;
        expect(['completed', 'failed']).toContain(job?.status);
      },
      { timeout: 60_000, interval: 100 },
    );
    const results = await call(service.url, 'GET', `/jobs/${id}/results`, { token });
    expect(results.body.data.items).toEqual([]);
    return job as { status: string; targets: TargetView[]; charges: unknown };
  }

  it('fails a promotion, sign-in or error page served in place of a product or a result page as unrecognized_page, uncharged', async () => {
    const before = (await call(service.url, 'GET', '/usage', { token })).body.data.credits.available as number;
    const details = await finished({ type: 'details', targets: ['B0ODDPAGE1', 'B0SIGNIN01', 'B0ERRPAGE1'] });
    const search = await finished({ type: 'search', targets: ['unrecognized lamp', 'signin desk'] });
    for (const job of [details, search]) {
      expect(job.status).toBe('failed');
      expect(job.charges).toEqual({ chargedTargets: 0, unchargedTargets: 0 });
      for (const target of job.targets) {
        expect(target, target.value).toMatchObject({ status: 'failed', reason: 'unrecognized_page' });
        expect(target.message, target.value).toMatch(/^not a (?:product|search result) page \(HTTP 200/);
      }
    }
    const after = (await call(service.url, 'GET', '/usage', { token })).body.data.credits;
    expect(after).toEqual({ available: before, reserved: 0 });
  }, 120_000);

  it('fails the block pages it knows as blocked, with their kind, uncharged', async () => {
    const job = await finished({ type: 'details', targets: ['B0INTERST1', 'B0CHALLNG1', 'B0WAFCAPT1', 'B0BLOCKED1'] });
    expect(job.targets.map((t) => [t.value, t.status, t.reason, t.blockKind])).toEqual([
      ['B0INTERST1', 'failed', 'blocked', 'interstitial'],
      ['B0CHALLNG1', 'failed', 'blocked', 'challenge'],
      ['B0WAFCAPT1', 'failed', 'blocked', 'captcha'],
      ['B0BLOCKED1', 'failed', 'blocked', 'captcha'],
    ]);
    expect(job.targets.every((t) => /after 2 attempts$/.test(t.message ?? ''))).toBe(true);
    expect(job.charges).toEqual({ chargedTargets: 0, unchargedTargets: 0 });
  }, 120_000);

  it('still takes the pages asked for, and charges them', async () => {
    const job = await finished({ type: 'details', targets: ['B0NOTFOUND'] });
    expect(job.targets[0]).toMatchObject({ status: 'failed', reason: 'not_found' });
    const created = await call(service.url, 'POST', `/projects/${projectId}/jobs`, { token, body: { type: 'details', targets: ['B0SIM00021'] } });
    const id = created.body.data.id as string;
    await vi.waitFor(async () => expect((await call(service.url, 'GET', `/jobs/${id}`, { token })).body.data.status).toBe('completed'), {
      timeout: 60_000,
      interval: 100,
    });
    const done = (await call(service.url, 'GET', `/jobs/${id}`, { token })).body.data;
    expect(done.targets[0]).toMatchObject({ status: 'success', charged: true });
    expect(done.charges).toEqual({ chargedTargets: 1, unchargedTargets: 0 });
  }, 120_000);
});
