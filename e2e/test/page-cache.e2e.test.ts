/**
 * The shared page cache end to end, in each run mode (run-modes.ts; docs/adr/0023-shared-page-cache.md):
 * one organization's details job with `config.maxAge` fills the cache; another organization's same
 * job is answered from it without a request to the marketplace, its targets and records carry
 * `cachedAt`, and it is charged the cached price (1 credit a target) where the first paid the full
 * one. A job without `maxAge` fetches again. `maxAge` on a type the cache does not answer, or longer
 * than the cache keeps pages, is refused with 400.
 */
import { CREDITS_PER_TARGET, type Job, type JobResults, type JobType, type ResultRecord, type Usage } from '@crawl/contracts';
import { CATEGORIES, createSimulator, makeCatalogAsin, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpWithProject } from './crawling-service.ts';
import { call } from './http-call.ts';
import { runModes, type RunningService } from './run-modes.ts';

const SECRET = 'page-cache-e2e-secret-that-is-long-enough-0123456789';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const WAIT = { timeout: 90_000, interval: 150 };
/** The default cached price of a details target (CACHED_CREDITS_DETAILS). */
const CACHED_DETAILS_CREDITS = 1;

const ASINS = [1, 2, 3].map((n) => makeCatalogAsin(n % CATEGORIES.length, `page-cache-${n}`));

/** Requests that reached the marketplace's pages (the health route is not a page). */
const pageRequests = (sim: Simulator): number => sim.stats().total - (sim.stats().byRoute.health ?? 0);

const modes = await runModes();

describe.each(modes)('shared page cache end to end: $name', (mode) => {
  if (mode.skipReason) {
    it('needs its backends', (context) => {
      console.warn(`[page cache e2e: ${mode.name} skipped] ${mode.skipReason}`);
      context.skip(mode.skipReason);
    });
    return;
  }

  let sim: Simulator;
  let service: RunningService;
  let first: { token: string; projectId: string };
  let second: { token: string; projectId: string };

  type Org = typeof first;
  async function api<T = unknown>(org: Org, method: string, path: string, body?: unknown): Promise<{ status: number; data: T; body: any }> {
    const res = await call(service.url, method, path, { token: org.token, body });
    return { status: res.status, data: res.body?.data as T, body: res.body };
  }
  const available = async (org: Org): Promise<number> => (await api<Usage>(org, 'GET', '/usage')).data.credits.available;

  /** Creates the job, waits for its end and its settlement, and gives the job, its records and the credits it cost. */
  async function crawl(org: Org, type: JobType, targets: string[], config: Record<string, unknown> = {}) {
    const before = await available(org);
    const created = await api<Job>(org, 'POST', `/projects/${org.projectId}/jobs`, { type, targets, config });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let job = created.data;
    await vi.waitFor(async () => {
      job = (await api<Job>(org, 'GET', `/jobs/${created.data.id}`)).data;
      expect(TERMINAL, `job ${job.id}: ${JSON.stringify(job)}`).toContain(job.status);
    }, WAIT);
    let spent = 0;
    await vi.waitFor(async () => {
      const usage = (await api<Usage>(org, 'GET', '/usage')).data;
      expect(usage.credits.reserved).toBe(0);
      spent = before - usage.credits.available;
    }, WAIT);
    const page = await api<JobResults>(org, 'GET', `/jobs/${job.id}/results?pageSize=200`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return { job, records: page.data.items as ResultRecord[], spent };
  }

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 28 });
    service = await mode.start(sim, SECRET, {});
    first = await signUpWithProject(service.url, 'cache-first');
    second = await signUpWithProject(service.url, 'cache-second');
  }, 150_000);

  afterAll(async () => {
    const codes = await service?.stop();
    await sim?.close();
    if (codes) expect(Object.entries(codes).filter(([, code]) => code !== 0)).toEqual([]);
  }, 60_000);

  async function explained(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      console.error(`[page cache e2e: ${mode.name}] process output:\n${service.output()}`);
      throw error;
    }
  }

  it(
    "another organization's same details job is answered from the cache: no request upstream, cachedAt, the cached price",
    () =>
      explained(async () => {
        sim.resetStats();
        const filled = await crawl(first, 'details', ASINS, { maxAge: '1h' });
        expect(filled.job.status, JSON.stringify(filled.job.targets)).toBe('completed');
        expect(filled.job.targets.every((t) => t.status === 'success' && t.cachedAt === undefined)).toBe(true);
        expect(filled.records.every((r) => r.cachedAt === undefined)).toBe(true);
        expect(filled.spent).toBe(ASINS.length * CREDITS_PER_TARGET.details);
        expect(pageRequests(sim)).toBeGreaterThanOrEqual(ASINS.length);

        sim.resetStats();
        const cached = await crawl(second, 'details', ASINS, { maxAge: '1h' });
        expect(pageRequests(sim)).toBe(0);
        expect(cached.job.status, JSON.stringify(cached.job.targets)).toBe('completed');
        expect(cached.job.targets.map((t) => [t.asin, t.status])).toEqual(ASINS.map((asin) => [asin, 'success']));
        for (const target of cached.job.targets) expect(Date.parse(target.cachedAt ?? '')).not.toBeNaN();
        expect(cached.records.map((r) => r.asin).sort()).toEqual([...ASINS].sort());
        for (const record of cached.records) expect(Date.parse(record.cachedAt ?? '')).not.toBeNaN();
        // The same facts as the fetch that filled the cache.
        const titleOf = (records: readonly ResultRecord[], asin: string) => records.find((r) => r.asin === asin)?.title;
        for (const asin of ASINS) expect(titleOf(cached.records, asin)).toBe(titleOf(filled.records, asin));
        expect(cached.spent).toBe(ASINS.length * CACHED_DETAILS_CREDITS);
        // Nothing of the first organization's job is visible to the second.
        expect((await api(second, 'GET', `/jobs/${filled.job.id}`)).status).toBe(404);
      }),
    180_000,
  );

  it(
    'a job without maxAge fetches again, at the full price',
    () =>
      explained(async () => {
        // The cache was filled by the previous case or fills now; either way this job must not read it.
        await crawl(first, 'details', ASINS, { maxAge: '1h' });
        sim.resetStats();
        const fresh = await crawl(second, 'details', ASINS);
        expect(fresh.job.status, JSON.stringify(fresh.job.targets)).toBe('completed');
        expect(pageRequests(sim)).toBeGreaterThanOrEqual(ASINS.length);
        expect(fresh.job.targets.every((t) => t.cachedAt === undefined)).toBe(true);
        expect(fresh.records.every((r) => r.cachedAt === undefined)).toBe(true);
        expect(fresh.spent).toBe(ASINS.length * CREDITS_PER_TARGET.details);
      }),
    180_000,
  );

  it('refuses maxAge on a reviews job and a maxAge longer than 30 days with 400, reserving nothing', () =>
    explained(async () => {
      const before = await available(first);
      const reviews = await api(first, 'POST', `/projects/${first.projectId}/jobs`, { type: 'reviews', targets: [ASINS[0]], config: { maxAge: '1h' } });
      expect(reviews.status, JSON.stringify(reviews.body)).toBe(400);
      expect(reviews.body.error.code).toBe('VALIDATION_ERROR');
      expect(reviews.body.error.message).toContain('maxAge');
      const tooOld = await api(first, 'POST', `/projects/${first.projectId}/jobs`, { type: 'details', targets: [ASINS[0]], config: { maxAge: '31d' } });
      expect(tooOld.status, JSON.stringify(tooOld.body)).toBe(400);
      expect(tooOld.body.error.code).toBe('VALIDATION_ERROR');
      expect(tooOld.body.error.message).toContain('30d');
      expect(await available(first)).toBe(before);
    }));
});
