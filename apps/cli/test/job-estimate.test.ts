import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope, runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const estimate = {
  type: 'reviews',
  targetCount: 2,
  unitsPerTarget: 10,
  creditsPerUnit: 1,
  credits: 20,
  billedPerPageFetched: true,
  maxCredits: 15,
  withinMaxCredits: false,
  balance: { available: 500, reserved: 0, sufficient: true },
  quota: {
    limits: { jobsPerMonth: 100, targetsPerMonth: 1000, exportsPerMonth: 10 },
    used: { jobsThisMonth: 3, targetsThisMonth: 40, exportsThisMonth: 0 },
    remaining: { jobsPerMonth: 97, targetsPerMonth: 960, exportsPerMonth: 10 },
    exceedsJobs: false,
    exceedsTargets: false,
  },
  queue: { position: 1, targetsAhead: 4, etaSeconds: 90 },
};

describe('jobs estimate and --max-credits', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('jobs estimate sends the create flags to the estimate route and shows the figures', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 200, { data: estimate }));
    const run = await runCli(
      ['jobs', 'estimate', '--project', 'prj_1', '--type', 'reviews', '--target', 'B0SIM00001', '--target', 'B0SIM00002', '--max-credits', '15'],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/projects/prj_1/jobs/estimate' });
    expect(api.requests[0]?.body).toEqual({ type: 'reviews', targets: ['B0SIM00001', 'B0SIM00002'], maxCredits: 15 });
    expect(run.stdout).toContain('at most 20 (2 × 10 unit(s) × 1)');
    expect(run.stdout).toContain('exceeded: the create would be refused');
    expect(run.stdout).toContain('3 of 100');
    expect(run.stdout).toContain('position 1, at most 4 target(s) ahead');
  });

  it('jobs create --max-credits sends the cap and reports the 402', async () => {
    api = await startStubApi((_request, res) =>
      sendJson(res, 402, errorEnvelope('INSUFFICIENT_CREDITS', 'This job would reserve 20 credits, more than maxCredits 15')),
    );
    const run = await runCli(['jobs', 'create', '--project', 'prj_1', '--type', 'search', '--target', 'a', '--max-credits', '15'], { baseUrl: api.url });
    expect(run.code).not.toBe(0);
    expect(api.requests[0]?.body).toEqual({ type: 'search', targets: ['a'], maxCredits: 15 });
    expect(run.stderr).toContain('This job would reserve 20 credits, more than maxCredits 15');
  });

  it('refuses a --max-credits that is not a whole number before calling the API', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 200, { data: estimate }));
    const run = await runCli(['jobs', 'estimate', '--project', 'prj_1', '--type', 'search', '--target', 'a', '--max-credits', 'lots'], { baseUrl: api.url });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--max-credits must be a whole number');
    expect(api.requests).toHaveLength(0);
  });
});
