import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { productRecord, searchRecord } from '../../testing/result-records.ts';

describe.each(testBackends())('field coverage on GET /jobs/:id ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const createJob = async (type: string, targets: string[]) =>
    (await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type, targets } })).body.data as { id: string };
  const getJob = async (id: string) => (await h.request({ method: 'GET', url: `/jobs/${id}`, token: alice.token })).body.data;

  beforeEach(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  it('shows the share of records with each field, updated as targets report, and ignores a repeated report', async () => {
    const job = await createJob('search', ['a', 'b']);
    expect((await getJob(job.id)).fieldCoverage).toBeUndefined();
    const price = { amount: 1, currency: 'USD', raw: '$1' };
    await h.report(job.id, 0, {
      status: 'success',
      items: [
        searchRecord({ asin: 'B000000001', price, coupon: 'Save 5%', badges: ['best_seller'], searchTotalResults: 100 }),
        // Keys a record may carry that would be update operators or paths in the job document.
        searchRecord({ asin: 'B000000002', position: 2, price, badges: [], searchTotalResults: 100, 'fieldCounts.price': 1, $inc: 5 }),
      ],
    });
    const first = (await getJob(job.id)).fieldCoverage;
    expect(first).toMatchObject({ price: 1, coupon: 0.5, badges: 0.5, searchTotalResults: 1, rating: 0, relatedSearches: 0 });
    expect(Object.keys(first)).not.toContain('asin');
    expect(Object.keys(first).some((key) => key.includes('$') || key.includes('.'))).toBe(false);

    await h.report(job.id, 0, { status: 'success', items: [searchRecord({ asin: 'B000000009', price })] });
    await h.report(job.id, 1, {
      status: 'success',
      items: [searchRecord({ asin: 'B000000003', keyword: 'b', rating: 4.5 }), searchRecord({ asin: 'B000000004', keyword: 'b', position: 2 })],
    });
    const done = await getJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.resultCount).toBe(4);
    expect(done.fieldCoverage).toMatchObject({ price: 0.5, coupon: 0.25, rating: 0.25, searchTotalResults: 0.5 });
  });

  it('uses the product fields for details jobs', async () => {
    const job = await createJob('details', ['B000000001']);
    await h.report(job.id, 0, { status: 'success', items: [productRecord({ starHistogram: { fiveStar: 80 }, variations: [] })] });
    const coverage = (await getJob(job.id)).fieldCoverage;
    expect(coverage).toMatchObject({ starHistogram: 1, variations: 0, price: 0 });
    expect(coverage).not.toHaveProperty('boughtInPastMonth');
  });
});
