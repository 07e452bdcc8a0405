import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogPaths, SERVICE_NAMES } from '@crawl/contracts';
import { createSimulator, WELL_KNOWN_ASINS, type Simulator } from '@crawl/marketplace-simulator';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

describe('a worker that dies mid-target', () => {
  let sim: Simulator;
  let dataDir: string;
  const services: TestService[] = [];

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
    dataDir = mkdtempSync(join(tmpdir(), 'crawl-restart-'));
  });
  afterAll(async () => {
    for (const svc of services) await svc.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses neither the target nor the job: after a restart the target is crawled and the job completes', async () => {
    const env = { DATA_DIR: dataDir, MARKETPLACE_BASE_URL: sim.url, UPSTREAM_RATE_PER_MINUTE: '60000', UPSTREAM_BURST: '20' };
    // First life: no crawler-worker runs; a "worker" claims target 0 and dies before reporting.
    const first = await startTestService({ env });
    services.push(first);
    const user = await first.registerUser();
    const projectId = (await first.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'p' } })).body.data.id;
    const created = await first.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: user.token,
      body: { type: 'details', targets: [WELL_KNOWN_ASINS[0], WELL_KNOWN_ASINS[1]] },
    });
    expect(created.status).toBe(201);
    const jobId = created.body.data.id as string;
    const claim = await first.app.inject({
      method: 'POST',
      url: CatalogPaths.claimTarget(jobId, 0),
      headers: { ...first.internalHeaders('crawler-worker'), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(JSON.parse(claim.body).data.proceed).toBe(true);
    const running = (await first.request({ method: 'GET', url: `/jobs/${jobId}`, token: user.token })).body.data;
    expect(running.status).toBe('running');
    expect(running.targets[0].status).toBe('running');
    await first.close();
    services.pop();

    // Second life: every service, on the same data; the open targets are enqueued again.
    const second = await startTestService({ targets: [...SERVICE_NAMES], env });
    services.push(second);
    const job = await vi.waitFor(
      async () => {
        const current = (await second.request({ method: 'GET', url: `/jobs/${jobId}`, token: user.token })).body.data;
        expect(['completed', 'failed'], JSON.stringify(current)).toContain(current?.status);
        return current;
      },
      { timeout: 20_000, interval: 25 },
    );
    expect(job.status).toBe('completed');
    expect(job.targets.map((t: { status: string }) => t.status)).toEqual(['success', 'success']);
    expect(job.resultCount).toBe(2);
  });
});
