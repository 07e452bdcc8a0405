import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { asinNumber, productRecord } from '../../testing/result-records.ts';

/**
 * 100,000 lines: every 10th a duplicate of the line before it, every 25th not an ASIN, the rest
 * distinct ASINs (some as product URLs). Returns the body and what the counts must be.
 */
function mixedUpload(lines: number) {
  const out: string[] = [];
  let distinct = 0;
  let invalid = 0;
  let duplicates = 0;
  for (let n = 1; n <= lines; n += 1) {
    if (n % 25 === 0) {
      out.push(`not an asin ${n}`);
      invalid += 1;
    } else if (n % 10 === 0) {
      out.push(out[out.length - 1]?.startsWith('not') ? `B${String(distinct).padStart(9, '0')}` : (out[out.length - 1] as string));
      duplicates += 1;
    } else {
      distinct += 1;
      const asin = `B${String(distinct).padStart(9, '0')}`;
      out.push(n % 3 === 0 ? `https://www.amazon.de/dp/${asin}` : asin);
    }
  }
  return { body: `${out.join('\r\n')}\n`, distinct, invalid, duplicates };
}

describe.each(testBackends())('target lists routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;
  const upload = (payload: string, query: string, contentType = 'text/plain', token = alice.token) =>
    h.request({ method: 'POST', url: `/projects/${projectId}/target-lists?${query}`, token, payload, headers: { 'content-type': contentType } });

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    h.billing.startingCredits = 1_000_000;
    h.billing.limits.targetsPerMonth = 1_000_000;
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'lists' } })).body.data.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('takes a 100,000-line upload with duplicates and invalid lines, counts them and pages the targets', async () => {
    const { body, distinct, invalid, duplicates } = mixedUpload(100_000);
    const res = await upload(body, 'type=details&name=Big');
    expect(res.status, res.text).toBe(201);
    const { list, rejectedLines } = res.body.data;
    expect(list.counts).toEqual({ received: 100_000, accepted: distinct, duplicates, rejected: invalid });
    expect(rejectedLines).toHaveLength(1000);
    expect(rejectedLines[0]).toEqual({ line: 25, value: 'not an asin 25', reason: expect.stringContaining('is not a valid ASIN or product URL') });

    const page = await h.request({ method: 'GET', url: `/target-lists/${list.id}?offset=4999&limit=3`, token: alice.token });
    expect(page.status, page.text).toBe(200);
    // Targets 5000-5002 straddle the first stored page's end; product URLs stay as uploaded.
    expect(page.body.data.targets).toHaveLength(3);
    expect(page.body.data.meta).toEqual({ total: distinct, limit: 3, offset: 4999 });
    const listed = await h.request({ method: 'GET', url: `/projects/${projectId}/target-lists`, token: alice.token });
    expect(listed.body.data.map((l: { id: string }) => l.id)).toContain(list.id);
  }, 120_000);

  it('reads the named column of a CSV with a header, and refuses an upload with no valid target', async () => {
    const csv = 'name,asin\n"Head, phones",B000000001\nCase,B000000002\nDup,b000000001\nBad,xyz\n';
    const res = await upload(csv, 'type=details', 'text/csv');
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.list.counts).toEqual({ received: 4, accepted: 2, duplicates: 1, rejected: 1 });
    expect(res.body.data.rejectedLines).toEqual([{ line: 5, value: 'xyz', reason: expect.any(String) }]);

    const none = await upload('nope\n\n', 'type=details');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('No valid target');
    const wrongType = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/target-lists?type=details`,
      token: alice.token,
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrongType.status).toBe(415);
  });

  it('keeps lists to their organization and deletes them', async () => {
    const res = await upload('B000000001\n', 'type=details');
    const id = res.body.data.list.id;
    const bob = h.user();
    expect((await h.request({ method: 'GET', url: `/target-lists/${id}`, token: bob.token })).status).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/target-lists/${id}`, token: bob.token })).status).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/target-lists/${id}`, token: alice.token })).status).toBe(204);
    expect((await h.request({ method: 'GET', url: `/target-lists/${id}`, token: alice.token })).status).toBe(404);
  });

  it('creates a job from a list and runs it to completion', async () => {
    const listRes = await upload('B000000001\nhttps://www.amazon.de/dp/B000000002\nB000000001\n', 'type=details');
    const listId = listRes.body.data.list.id;
    const created = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: alice.token,
      body: { type: 'details', targetListId: listId },
    });
    expect(created.status, created.text).toBe(201);
    const job = created.body.data;
    expect(job.targets.map((t: { asin: string }) => t.asin)).toEqual(['B000000001', 'B000000002']);
    for (const index of [0, 1]) {
      await h.claim(job.id, index);
      await h.report(job.id, index, { status: 'success', items: [productRecord({ asin: asinNumber(index + 1) })] });
    }
    const done = await h.request({ method: 'GET', url: `/jobs/${job.id}`, token: alice.token });
    expect(done.body.data.status).toBe('completed');
  });

  it('refuses targets and targetListId together, a list of another type, and a list past one job’s limit', async () => {
    const small = (await upload('B000000001\n', 'type=details')).body.data.list.id;
    const both = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: alice.token,
      body: { type: 'details', targets: ['B000000001'], targetListId: small },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('exactly one');
    const neither = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'details' } });
    expect(neither.status).toBe(400);
    const otherType = await h.request({
      method: 'POST',
      url: `/projects/${projectId}/jobs`,
      token: alice.token,
      body: { type: 'reviews', targetListId: small },
    });
    expect(otherType.status).toBe(400);
    expect(otherType.body.error.message).toContain('holds details targets');

    const big = Array.from({ length: 1001 }, (_, i) => `B${String(i + 1).padStart(9, '0')}`).join('\n');
    const bigId = (await upload(big, 'type=details')).body.data.list.id;
    const before = h.billing.reservations.size;
    const refused = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'details', targetListId: bigId } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('1001 targets');
    expect(h.billing.reservations.size).toBe(before);
  });
});
