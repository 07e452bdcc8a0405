import type { SearchRecord } from '@crawl/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { asinNumber, searchRecord } from '../../testing/result-records.ts';

describe.each(testBackends())('results paging routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  /** Target `target`'s records: keyword `kw<target>`, ranks 1…`count`. */
  const itemsFor = (target: number, count: number): SearchRecord[] =>
    Array.from({ length: count }, (_, i) => searchRecord({ asin: asinNumber(target * 100 + i), keyword: `kw${target}`, position: i + 1, rank: i + 1 }));
  const createJob = async (targets: string[]) =>
    (await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'search', targets } })).body.data.id as string;
  const results = (jobId: string, query = '', token = alice.token) => h.request({ method: 'GET', url: `/jobs/${jobId}/results${query}`, token });

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it("counts a running job's reported targets in total and pages them in target order", async () => {
    const jobId = await createJob(['a', 'b', 'c']);
    await h.claim(jobId, 1);
    await h.report(jobId, 1, { status: 'success', items: itemsFor(1, 3) });
    let res = await results(jobId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ items: itemsFor(1, 3), pagination: { page: 1, pageSize: 50, total: 3, nextCursor: null } });
    expect((await h.request({ method: 'GET', url: `/jobs/${jobId}`, token: alice.token })).body.data).toMatchObject({ status: 'running', resultCount: 3 });

    // Target 0 reports later: its rows come first, and the total follows the job's count.
    await h.report(jobId, 0, { status: 'success', items: itemsFor(0, 2) });
    res = await results(jobId, '?pageSize=4');
    expect(res.body.data.items).toEqual([...itemsFor(0, 2), ...itemsFor(1, 2)]);
    expect(res.body.data.pagination).toMatchObject({ page: 1, pageSize: 4, total: 5, nextCursor: expect.any(String) });
    res = await results(jobId, '?page=2&pageSize=4');
    expect(res.body.data.items).toEqual(itemsFor(1, 3).slice(2));
    expect(res.body.data.pagination).toEqual({ page: 2, pageSize: 4, total: 5, nextCursor: null });

    await h.report(jobId, 2, { status: 'failed', reason: 'blocked', items: [] });
    res = await results(jobId);
    expect(res.body.data.pagination.total).toBe(5);
    expect((await h.request({ method: 'GET', url: `/jobs/${jobId}`, token: alice.token })).body.data).toMatchObject({ status: 'completed', resultCount: 5 });
  });

  it('walks all results with nextCursor, pages and cursors agreeing', async () => {
    const jobId = await createJob(['a', 'b', 'c', 'd']);
    const perTarget = [4, 0, 3, 6];
    for (const [t, count] of perTarget.entries())
      await h.report(jobId, t, count > 0 ? { status: 'success', items: itemsFor(t, count) } : { status: 'failed', reason: 'not_found', items: [] });
    const all = perTarget.flatMap((count, t) => itemsFor(t, count));

    const walked: SearchRecord[] = [];
    const pages: number[] = [];
    let res = await results(jobId, '?pageSize=3');
    for (;;) {
      expect(res.status).toBe(200);
      expect(res.body.data.pagination.total).toBe(13);
      walked.push(...res.body.data.items);
      pages.push(res.body.data.pagination.page);
      const next = res.body.data.pagination.nextCursor as string | null;
      if (next === null) break;
      const byPage = await results(jobId, `?page=${pages.length + 1}&pageSize=3`);
      res = await results(jobId, `?pageSize=3&cursor=${next}`);
      expect(res.body.data).toEqual(byPage.body.data);
    }
    expect(walked).toEqual(all);
    expect(pages).toEqual([1, 2, 3, 4, 5]);

    // A cursor wins over page, and the response says which page its first result is on.
    const first = await results(jobId, '?pageSize=5');
    const after = await results(jobId, `?page=99&pageSize=2&cursor=${first.body.data.pagination.nextCursor}`);
    expect(after.body.data.items).toEqual(all.slice(5, 7));
    expect(after.body.data.pagination).toMatchObject({ page: 3, pageSize: 2, total: 13 });
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['characters outside base64url', 'a%2Bb'],
    ['an over-long value', 'A'.repeat(100)],
    ['a non-canonical number', Buffer.from('007').toString('base64url')],
    ['a negative number', Buffer.from('-1').toString('base64url')],
    ['an empty value', ''],
  ])('rejects a cursor with %s: 400 VALIDATION_ERROR envelope', async (_label, cursor) => {
    const jobId = await createJob(['x']);
    const res = await results(jobId, `?cursor=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('cursor'), details: [expect.any(String)] },
    });
  });

  it("answers 404 for another organization's job, cursor or not", async () => {
    const jobId = await createJob(['x']);
    await h.report(jobId, 0, { status: 'success', items: itemsFor(0, 3) });
    const cursor = (await results(jobId, '?pageSize=1')).body.data.pagination.nextCursor as string;
    const mallory = h.user();
    expect((await results(jobId, `?cursor=${cursor}`, mallory.token)).status).toBe(404);
    expect((await results(jobId, `?cursor=${cursor}`)).body.data.items).toEqual(itemsFor(0, 3).slice(1));
  });
});
