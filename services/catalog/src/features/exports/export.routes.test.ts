import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { asinNumber, searchRecord } from '../../testing/result-records.ts';

describe.each(testBackends())('results and export routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let jobId: string;
  const items = Array.from({ length: 7 }, (_, i) =>
    searchRecord({
      asin: asinNumber(i),
      title: `Item ${i}`,
      keyword: i < 4 ? 'a' : 'b',
      position: i + 1,
      price: { amount: 10 + i, currency: 'EUR', raw: `€${10 + i}.00` },
      rank: i + 1,
    }),
  );

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
    jobId = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: alice.token, body: { type: 'search', targets: ['a', 'b'] } })).body.data
      .id;
    await h.claim(jobId, 0);
    await h.report(jobId, 0, { status: 'success', items: items.slice(0, 4) });
    await h.claim(jobId, 1);
    await h.report(jobId, 1, { status: 'success', items: items.slice(4) });
  });
  afterAll(async () => {
    await h.close();
  });

  it('pages results with page and pageSize (defaults 1 and 50, cap 200)', async () => {
    const all = await h.request({ method: 'GET', url: `/jobs/${jobId}/results`, token: alice.token });
    expect(all.status).toBe(200);
    expect(all.body.data.pagination).toEqual({ page: 1, pageSize: 50, total: 7, nextCursor: null });
    expect(all.body.data.items).toEqual(items);
    const page2 = await h.request({ method: 'GET', url: `/jobs/${jobId}/results?page=2&pageSize=3`, token: alice.token });
    expect(page2.body.data.items).toEqual(items.slice(3, 6));
    expect(page2.body.data.pagination).toEqual({ page: 2, pageSize: 3, total: 7, nextCursor: expect.any(String) });
    const last = await h.request({ method: 'GET', url: `/jobs/${jobId}/results?page=3&pageSize=3`, token: alice.token });
    expect(last.body.data.items).toEqual(items.slice(6));
    const beyond = await h.request({ method: 'GET', url: `/jobs/${jobId}/results?page=99&pageSize=3`, token: alice.token });
    expect(beyond.body.data.items).toEqual([]);
    expect(beyond.body.data.pagination.total).toBe(7);
    const capped = await h.request({ method: 'GET', url: `/jobs/${jobId}/results?pageSize=5000`, token: alice.token });
    expect(capped.body.data.pagination.pageSize).toBe(200);
  });

  it.each(['page=0', 'pageSize=0', 'page=-1', 'page=x', 'pageSize=1.5'])('rejects results query %s', async (query) => {
    const res = await h.request({ method: 'GET', url: `/jobs/${jobId}/results?${query}`, token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('exports JSON (the default) as an attachment', async () => {
    const res = await h.request({ method: 'GET', url: `/jobs/${jobId}/export`, token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="job-${jobId}.json"`);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual(items);
  });

  it('exports CSV with flattened price columns', async () => {
    const res = await h.request({ method: 'GET', url: `/jobs/${jobId}/export?format=csv`, token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="job-${jobId}.csv"`);
    expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe(
      'asin,title,price.amount,price.currency,price.raw,rank,sponsored,url,position,page,keyword,prime,quality.status,quality.missing,missingFields',
    );
    expect(lines[1]).toBe('B000000000,Item 0,10,EUR,€10.00,1,false,https://www.amazon.com/dp/B000000000,1,1,a,false,complete,[],[]');
    expect(lines).toHaveLength(8);
  });

  it('protects CSV cells against formula injection', async () => {
    const bob = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: bob.token, body: { name: 'p' } })).body.data.id;
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: bob.token, body: { type: 'search', targets: ['x'] } })).body.data
      .id;
    await h.report(job, 0, {
      status: 'success',
      // Records are open: the fields after the title stand for any a record may carry.
      items: [searchRecord({ title: '=HYPERLINK("http://evil")', a: '+1', b: '-2+3', c: '@SUM(A1)', d: '\tx', e: '\rx', f: '\nx', g: 'safe', n: -5 })],
    });
    const res = await h.request({ method: 'GET', url: `/jobs/${job}/export?format=csv`, token: bob.token });
    expect(res.status).toBe(200);
    const [header, ...rest] = res.text.split('\n');
    expect(header).toBe('asin,title,sponsored,url,position,page,keyword,prime,quality.status,quality.missing,missingFields,a,b,c,d,e,f,g,n');
    const row = rest.join('\n');
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(row).toContain("'+1");
    expect(row).toContain("'-2+3");
    expect(row).toContain("'@SUM(A1)");
    expect(row).toContain("'\tx");
    expect(row).toContain("'\rx");
    expect(row).toContain("'\nx");
    expect(row).toContain(',safe,-5');
  });

  it('counts exports against the monthly allowance: 403 FORBIDDEN envelope when exhausted', async () => {
    const carol = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: carol.token, body: { name: 'p' } })).body.data.id;
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: carol.token, body: { type: 'search', targets: ['x'] } })).body.data
      .id;
    await h.report(job, 0, { status: 'success', items: [searchRecord({ keyword: 'x' })] });
    h.billing.account(carol.organizationId).exports = h.billing.limits.exportsPerMonth - 1;
    expect((await h.request({ method: 'GET', url: `/jobs/${job}/export?format=csv`, token: carol.token })).status).toBe(200);
    const res = await h.request({ method: 'GET', url: `/jobs/${job}/export`, token: carol.token });
    expect(res.status).toBe(403);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect(h.billing.exportCalls.filter((c) => c.organizationId === carol.organizationId)).toEqual([
      { organizationId: carol.organizationId, jobId: job, format: 'csv' },
    ]);
  });

  it('answers errors as the JSON envelope (unknown job, bad format) without consuming an export', async () => {
    const before = h.billing.exportCalls.length;
    const unknown = await h.request({ method: 'GET', url: '/jobs/job_nope/export', token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const bad = await h.request({ method: 'GET', url: `/jobs/${jobId}/export?format=xlsx`, token: alice.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(h.billing.exportCalls.length).toBe(before);
  });

  it('refuses to export a job that is still queued or running: 409 CONFLICT, no file, nothing counted', async () => {
    const frank = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: frank.token, body: { name: 'p' } })).body.data.id;
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: frank.token, body: { type: 'search', targets: ['x', 'y'] } })).body
      .data.id;
    const exportsOfFrank = () => h.billing.exportCalls.filter((c) => c.organizationId === frank.organizationId);
    const queued = await h.request({ method: 'GET', url: `/jobs/${job}/export?format=csv`, token: frank.token });
    expect(queued.status).toBe(409);
    expect(queued.headers['content-disposition']).toBeUndefined();
    expect(queued.body).toEqual({
      success: false,
      error: {
        code: 'CONFLICT',
        message: 'Job is still queued: export it once it has finished (completed, failed or cancelled); this request was not counted',
        details: [{ reason: 'JOB_NOT_FINISHED', status: 'queued' }],
      },
    });
    await h.claim(job, 0);
    const firstHalf = searchRecord({ keyword: 'x', title: 'first half' });
    await h.report(job, 0, { status: 'success', items: [firstHalf] });
    const running = await h.request({ method: 'GET', url: `/jobs/${job}/export`, token: frank.token });
    expect(running.status).toBe(409);
    expect(running.body.error.message).toMatch(/^Job is still running/);
    expect(exportsOfFrank()).toEqual([]);
    expect(h.billing.account(frank.organizationId).exports).toBe(0);

    const secondHalf = searchRecord({ keyword: 'y', title: 'second half' });
    await h.report(job, 1, { status: 'success', items: [secondHalf] });
    const done = await h.request({ method: 'GET', url: `/jobs/${job}/export`, token: frank.token });
    expect(done.status).toBe(200);
    expect(JSON.parse(done.text)).toEqual([firstHalf, secondHalf]);
    expect(exportsOfFrank()).toHaveLength(1);
  });

  it('streams a large result set as valid CSV and JSON', async () => {
    const dave = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: dave.token, body: { name: 'big' } })).body.data.id;
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: dave.token, body: { type: 'search', targets: ['x', 'y', 'z'] } }))
      .body.data.id;
    // More than the stores' stream batch (500) per target, fewer on the slower wire backend.
    const perTarget = backend.name === 'embedded' ? 2000 : 600;
    for (let t = 0; t < 3; t += 1) {
      await h.report(job, t, {
        status: 'success',
        items: Array.from({ length: perTarget }, (_, i) =>
          searchRecord({
            asin: `A${t}-${i}`,
            title: `T ${i}`,
            keyword: 'xyz'.charAt(t),
            position: i + 1,
            price: { amount: i, currency: 'USD', raw: `$${i}` },
            rank: i + 1,
          }),
        ),
      });
    }
    const csv = await h.request({ method: 'GET', url: `/jobs/${job}/export?format=csv`, token: dave.token });
    expect(csv.text.trim().split('\n')).toHaveLength(3 * perTarget + 1);
    const json = await h.request({ method: 'GET', url: `/jobs/${job}/export?format=json`, token: dave.token });
    const parsed = JSON.parse(json.text) as Array<{ asin: string }>;
    expect(parsed).toHaveLength(3 * perTarget);
    expect(parsed[0]?.asin).toBe('A0-0');
    expect(parsed[3 * perTarget - 1]?.asin).toBe(`A2-${perTarget - 1}`);
  });

  it('exports an empty result set as an empty array and a header-only CSV', async () => {
    const erin = h.user();
    const project = (await h.request({ method: 'POST', url: '/projects', token: erin.token, body: { name: 'p' } })).body.data.id;
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: erin.token, body: { type: 'search', targets: ['x'] } })).body.data
      .id;
    await h.report(job, 0, { status: 'success', items: [] });
    const json = await h.request({ method: 'GET', url: `/jobs/${job}/export`, token: erin.token });
    expect(JSON.parse(json.text)).toEqual([]);
    const csv = await h.request({ method: 'GET', url: `/jobs/${job}/export?format=csv`, token: erin.token });
    expect(csv.status).toBe(200);
    expect(csv.text.trim()).toBe('');
  });
});
