/**
 * Every page kind end to end, in each run mode (run-modes.ts): a user creates a job of each type
 * besides search and details through the public API, with targets given both as identifiers and as
 * marketplace URLs, and reads back records that follow the type's schema (RECORD_SCHEMAS), with the
 * credits its price says: per target for best sellers, seller profiles and suggestions, per page
 * for category listings, and for reviews and offers per page that yielded records, never above what
 * was held. A reviews target behind the sign-in wall says so in its coverage (or fails as a
 * `signin_wall` block) instead of passing a short list off as all. Targets of another kind, or on
 * a host off the allowlist, are refused with 400 and cost nothing.
 */
import { CREDITS_PER_TARGET, type Job, type JobResults, type JobType, type Project, RECORD_SCHEMAS, type ResultRecord, type Usage } from '@crawl/contracts';
import { CATEGORIES, createSimulator, makeCatalogAsin, reviewsWallOf, SEEDED_MARKET, type Simulator } from '@crawl/marketplace-simulator';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './http-call.ts';
import { runModes, type RunningService } from './run-modes.ts';

const SECRET = 'page-kinds-e2e-secret-that-is-long-enough-0123456789';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const WAIT = { timeout: 90_000, interval: 150 };

/** A catalog ASIN of the simulator, the same for the same `n`. */
const simAsin = (n: number): string => makeCatalogAsin(n % CATEGORIES.length, `page-kinds-${n}`);
/** The first catalog ASIN from `from` whose review list meets the sign-in wall as `wall` says, with ratings enough for several pages. */
function walledAsin(wall: 'after_first_page' | 'every_page', from: number): string {
  for (let n = from; n < from + 2000; n += 1) {
    const asin = simAsin(n);
    if (reviewsWallOf(asin) === wall && (SEEDED_MARKET.product(asin)?.reviewCount ?? 0) >= 500) return asin;
  }
  throw new Error(`no simulator ASIN with a ${wall} review wall`);
}
function openAsins(count: number, from: number): string[] {
  const found: string[] = [];
  for (let n = from; found.length < count; n += 1) if (reviewsWallOf(simAsin(n)) === 'none') found.push(simAsin(n));
  return found;
}

const modes = await runModes();

describe.each(modes)('page kinds end to end: $name', (mode) => {
  if (mode.skipReason) {
    it('needs its backends', (context) => {
      console.warn(`[page kinds e2e: ${mode.name} skipped] ${mode.skipReason}`);
      context.skip(mode.skipReason);
    });
    return;
  }

  let sim: Simulator;
  let service: RunningService;
  let token: string;
  let projectId: string;

  async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T; body: any }> {
    const res = await call(service.url, method, path, { token, body });
    return { status: res.status, data: res.body?.data as T, body: res.body };
  }
  const available = async (): Promise<number> => (await api<Usage>('GET', '/usage')).data.credits.available;

  /** Creates the job, waits for its end and for its settlement, and gives the job, its records and the credits it cost. */
  async function crawl(type: JobType, targets: string[], config: Record<string, unknown> = {}) {
    const before = await available();
    const created = await api<Job>('POST', `/projects/${projectId}/jobs`, { type, targets, config });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let job = created.data;
    await vi.waitFor(async () => {
      job = (await api<Job>('GET', `/jobs/${created.data.id}`)).data;
      expect(TERMINAL, `job ${job.id}: ${JSON.stringify(job)}`).toContain(job.status);
    }, WAIT);
    // Settled: nothing of the job is held any more.
    let spent = 0;
    await vi.waitFor(async () => {
      const usage = (await api<Usage>('GET', '/usage')).data;
      expect(usage.credits.reserved).toBe(0);
      spent = before - usage.credits.available;
    }, WAIT);
    const records: ResultRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await api<JobResults>('GET', `/jobs/${job.id}/results?pageSize=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      records.push(...page.data.items);
      cursor = page.data.pagination.nextCursor ?? undefined;
    } while (cursor);
    return { job, records, spent, held: created.data.creditsReserved };
  }

  function expectSchema(type: JobType, records: readonly ResultRecord[]): void {
    for (const record of records) {
      const errors = [...Value.Errors(RECORD_SCHEMAS[type], record)].slice(0, 3);
      expect(
        errors.map((e) => `${e.path}: ${e.message}`),
        `${type} record ${JSON.stringify(record).slice(0, 300)}`,
      ).toEqual([]);
    }
  }

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 27 });
    service = await mode.start(sim, SECRET, {});
    const registered = await call(service.url, 'POST', '/auth/register', {
      body: { email: `kinds-${Date.now()}@example.com`, password: 'a-long-enough-password' },
    });
    expect(registered.status).toBe(201);
    token = registered.body.accessToken;
    const project = await api<Project>('POST', '/projects', { name: 'Every page kind' });
    expect(project.status).toBe(201);
    projectId = project.data.id;
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
      console.error(`[page kinds e2e: ${mode.name}] process output:\n${service.output()}`);
      throw error;
    }
  }

  it(
    'reviews: up to maxReviews per product, from an ASIN and a reviews URL, charged per page that yielded reviews',
    () =>
      explained(async () => {
        const [first, second] = openAsins(2, 101);
        const { job, records, spent, held } = await crawl('reviews', [first as string, `https://www.amazon.com/product-reviews/${second}`], { maxReviews: 25 });
        expect(job.status, JSON.stringify(job.targets)).toBe('completed');
        expect(job.targets.map((t) => [t.status, t.asin])).toEqual([
          ['success', first],
          ['success', second],
        ]);
        expect(held).toBe(2 * 3 * CREDITS_PER_TARGET.reviews);
        expectSchema('reviews', records);
        for (const target of job.targets) {
          const own = records.filter((r) => r.asin === target.asin);
          expect(new Set(own.map((r) => r.reviewId)).size).toBe(own.length);
          expect(own.length).toBeLessThanOrEqual(25);
          expect(target.coverage).toMatchObject({ fetched: own.length });
          expect(['none', 'maxReviews', 'page_cap']).toContain(target.coverage?.limitedBy);
          if (target.coverage?.limitedBy === 'maxReviews') expect(own.length).toBe(25);
          if (target.coverage?.limitedBy === 'none') expect(own.length).toBe(target.coverage.totalReviews);
        }
        // A page of ten reviews costs a credit: at least the pages the records needed, never more than held.
        const pagesNeeded = job.targets.reduce((sum, t) => sum + Math.ceil((t.coverage?.fetched ?? 0) / 10), 0);
        expect(spent).toBeGreaterThanOrEqual(pagesNeeded * CREDITS_PER_TARGET.reviews);
        expect(spent).toBeLessThanOrEqual(held);
      }),
    180_000,
  );

  it(
    'reviews: a list behind the sign-in wall says so instead of passing a short list off as all',
    () =>
      explained(async () => {
        const afterFirst = walledAsin('after_first_page', 201);
        const everyPage = walledAsin('every_page', 201);
        // The star filters' first pages get round the wall on later pages: past what they hold, the wall limits.
        const { job, records } = await crawl('reviews', [afterFirst, everyPage], { maxReviews: 500 });
        expectSchema('reviews', records);
        const walled = job.targets.find((t) => t.asin === afterFirst);
        expect(walled?.status, JSON.stringify(job.targets)).toBe('success');
        expect(walled?.coverage?.limitedBy).toBe('signin_wall');
        const totalReviews = walled?.coverage?.totalReviews ?? 0;
        expect(walled?.coverage?.fetched).toBeLessThan(Math.min(500, totalReviews));
        expect(walled?.coverage?.fetched).toBe(records.filter((r) => r.asin === afterFirst).length);
        const shut = job.targets.find((t) => t.asin === everyPage);
        if (shut?.status === 'success') expect(shut.coverage?.limitedBy).toBe('signin_wall');
        else expect(shut).toMatchObject({ status: 'failed', reason: 'blocked', blockKind: 'signin_wall' });
      }),
    180_000,
  );

  it(
    'offers: every offer of the all-offers view with its landed price and the buy box, charged per page of offers',
    () =>
      explained(async () => {
        const { job, records, spent, held } = await crawl('offers', [simAsin(301), `https://www.amazon.com/gp/offer-listing/${simAsin(302)}`]);
        expect(job.status, JSON.stringify(job.targets)).toBe('completed');
        expect(job.targets.map((t) => [t.status, t.asin])).toEqual([
          ['success', simAsin(301)],
          ['success', simAsin(302)],
        ]);
        expectSchema('offers', records);
        expect(records.length).toBeGreaterThan(0);
        for (const asin of [simAsin(301), simAsin(302)]) {
          const own = records.filter((r) => r.asin === asin);
          expect(own.length).toBeGreaterThan(0);
          expect(own.filter((r) => r.buyBox === true).length).toBeLessThanOrEqual(1);
        }
        for (const offer of records) {
          if (offer.price && offer.shipping && offer.landedPrice) {
            expect(offer.landedPrice.amount).toBeCloseTo(offer.price.amount + offer.shipping.amount, 2);
          }
        }
        const pagesNeeded = job.targets.reduce((sum, t) => sum + Math.ceil((t.resultCount ?? 0) / 10), 0);
        expect(spent).toBeGreaterThanOrEqual(pagesNeeded * CREDITS_PER_TARGET.offers);
        expect(spent).toBeLessThanOrEqual(held);
      }),
    180_000,
  );

  it(
    'bestsellers, category, seller and autocomplete: records of their schemas, charged at their prices',
    () =>
      explained(async () => {
        const bestsellers = await crawl('bestsellers', ['172282', 'https://www.amazon.com/gp/new-releases/electronics/281052'], { list: 'bestsellers' });
        expect(bestsellers.job.targets.map((t) => [t.status, t.key])).toEqual([
          ['success', '172282'],
          ['success', '281052'],
        ]);
        expectSchema('bestsellers', bestsellers.records);
        const ranks = bestsellers.records.filter((r) => r.nodeId === '172282').map((r) => r.rank);
        expect(ranks.length).toBeGreaterThanOrEqual(50);
        expect(ranks[0]).toBe(1);
        expect(bestsellers.spent).toBe(2 * CREDITS_PER_TARGET.bestsellers);

        const category = await crawl('category', ['283155', 'https://www.amazon.com/b?node=1055398'], { pages: 2 });
        expect(category.job.targets.map((t) => [t.status, t.key])).toEqual([
          ['success', '283155'],
          ['success', '1055398'],
        ]);
        expectSchema('category', category.records);
        expect(category.records.some((r) => r.page === 2)).toBe(true);
        expect(category.spent).toBe(2 * 2 * CREDITS_PER_TARGET.category);

        const sellerId = 'A1B2C3D4E5F6G7';
        const seller = await crawl('seller', [sellerId, 'https://www.amazon.com/sp?seller=A3KQ7XZ2M9P4RT']);
        expect(seller.job.targets.map((t) => [t.status, t.key])).toEqual([
          ['success', sellerId],
          ['success', 'A3KQ7XZ2M9P4RT'],
        ]);
        expectSchema('seller', seller.records);
        expect(seller.records.map((r) => r.sellerId).sort()).toEqual(['A1B2C3D4E5F6G7', 'A3KQ7XZ2M9P4RT']);
        expect(seller.spent).toBe(2 * CREDITS_PER_TARGET.seller);

        const autocomplete = await crawl('autocomplete', ['wireless ch', 'desk l']);
        expect(autocomplete.job.targets.every((t) => t.status === 'success')).toBe(true);
        expectSchema('autocomplete', autocomplete.records);
        const positions = autocomplete.records.filter((r) => r.prefix === 'desk l').map((r) => r.position);
        expect(positions).toEqual(positions.map((_, i) => i + 1));
        expect(autocomplete.spent).toBe(2 * CREDITS_PER_TARGET.autocomplete);

        // The CSV export flattens each kind's records like the others'.
        const csv = await call(service.url, 'GET', `/jobs/${seller.job.id}/export?format=csv`, { token });
        expect(csv.status).toBe(200);
        expect(csv.text.split('\n')[0]).toContain('sellerId');
      }),
    300_000,
  );

  it('refuses a target of another kind or off the allowlist with 400, reserving nothing', () =>
    explained(async () => {
      const before = await available();
      for (const [type, target] of [
        ['seller', 'not a seller id'],
        ['bestsellers', 'https://evil.example.com/zgbs/electronics/172282'],
        ['category', 'https://www.amazon.com/dp/B0SIM00001'],
        ['reviews', 'wireless headphones'],
        ['offers', 'https://www.amazon.com/sp?seller=A1B2C3D4E5F6G7'],
      ] as const) {
        const res = await api('POST', `/projects/${projectId}/jobs`, { type, targets: [target] });
        expect(res.status, `${type} ${target}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.message).toContain('targets[0]');
      }
      expect(await available()).toBe(before);
    }));
});
