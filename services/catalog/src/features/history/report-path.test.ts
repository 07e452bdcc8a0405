import { StorageUnavailableError } from '@crawl/storage';
import { describe, expect, it, vi } from 'vitest';
import { domainCatalog } from '../../testing/domain-catalog.ts';
import { asinNumber, productRecord, searchRecord } from '../../testing/result-records.ts';

const actor = { userId: 'usr_1', organizationId: 'org_1' };

describe('observations on the report path', () => {
  it('answers 503 when the observation write fails, leaves the target open, and counts the re-sent report once', async () => {
    const d = await domainCatalog();
    const project = await d.catalog.projects.create(actor, 'p');
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'details', targets: ['B0REPORT01'] });
    await d.catalog.progress.claimTarget(job._id, 0);
    const report = { status: 'success' as const, items: [productRecord({ asin: 'B0REPORT01', price: { amount: 3, currency: 'USD', raw: '$3' } })] };
    const observe = vi.spyOn(d.catalog.historyRecorder, 'observe');
    observe.mockRejectedValueOnce(new StorageUnavailableError('store down'));

    await expect(d.catalog.progress.reportTarget(job._id, 0, report)).rejects.toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    expect((await d.catalog.jobs.getOwned(actor.organizationId, job._id)).targets[0]?.status).toBe('running');

    expect(await d.catalog.progress.reportTarget(job._id, 0, report)).toMatchObject({ jobStatus: 'completed', finished: true });
    expect(observe).toHaveBeenCalledTimes(2);
    const latest = await d.catalog.history.productLatest(actor.organizationId, 'B0REPORT01', {});
    expect(latest).toMatchObject({ checks: 1, values: { price: 3, currency: 'USD' } });
    await d.queues.close();
    await d.store.close();
  });

  it('returns the changes of a report to the caller, and the same again when the report is applied a second time', async () => {
    const d = await domainCatalog();
    const item = (amount: number) => [productRecord({ asin: 'B0REPORT02', price: { amount, currency: 'USD', raw: `$${amount}` } })];
    const results = (jobId: string, amount: number) => ({
      organizationId: actor.organizationId,
      jobId,
      jobType: 'details' as const,
      config: {},
      targetIndex: 0,
      records: item(amount),
      at: d.clock.now().toISOString(),
    });
    expect(await d.catalog.historyRecorder.observe(results('job_a', 3))).toEqual([]);
    const changes = await d.catalog.historyRecorder.observe(results('job_b', 4));
    expect(changes).toMatchObject([{ field: 'price', previous: 3, current: 4, jobId: 'job_b', resultId: 'job_b:0:0' }]);
    expect(await d.catalog.historyRecorder.observe(results('job_b', 4))).toEqual(changes);
    await d.queues.close();
    await d.store.close();
  });

  it('stores a search report whose items history cannot place (no keyword, no page) and observes nothing of it', async () => {
    const d = await domainCatalog();
    const project = await d.catalog.projects.create(actor, 'p');
    const job = await d.catalog.jobs.create(actor, project._id, { type: 'search', targets: ['lamp'] });
    await d.catalog.progress.claimTarget(job._id, 0);
    const bare = { asin: 'B0BARE0001', title: 'Item', position: 1 } as unknown as ReturnType<typeof searchRecord>;
    expect(await d.catalog.progress.reportTarget(job._id, 0, { status: 'success', items: [bare] })).toMatchObject({ jobStatus: 'completed' });
    expect((await d.catalog.history.keywordRanks(actor.organizationId, 'lamp', {})).points).toEqual([]);
    await d.queues.close();
    await d.store.close();
  });

  it('keeps only values of the types the record schema gives them', async () => {
    const d = await domainCatalog();
    const odd = productRecord({ asin: 'B0ODDTYPES', rating: 4.5 }) as unknown as Record<string, unknown>;
    Object.assign(odd, {
      price: { amount: '12', currency: 'USD' },
      inStock: 'yes',
      seller: null,
      bestSellersRank: [null, { category: 'Toys', rank: 3 }, { category: 7, rank: 1 }],
    });
    const changes = await d.catalog.historyRecorder.observe({
      organizationId: actor.organizationId,
      jobId: 'job_odd',
      jobType: 'details',
      config: {},
      targetIndex: 0,
      records: [odd as unknown as ReturnType<typeof productRecord>],
      at: d.clock.now().toISOString(),
    });
    expect(changes).toEqual([]);
    const latest = await d.catalog.history.productLatest(actor.organizationId, 'B0ODDTYPES', {});
    expect(latest.values).toMatchObject({ rating: 4.5, currency: 'USD', 'bestSellersRank:Toys': 3 });
    expect(Object.keys(latest.values).filter((field) => field.startsWith('bestSellersRank:'))).toEqual(['bestSellersRank:Toys']);
    expect(latest.values).not.toHaveProperty('price');
    expect(latest.values).not.toHaveProperty('inStock');
    expect(latest.values).not.toHaveProperty('buyBoxSeller');
    await d.queues.close();
    await d.store.close();
  });

  it('marks an ASIN gone only when the check covered the page it was last seen on', async () => {
    const d = await domainCatalog();
    const [top, deep, other] = [asinNumber(1), asinNumber(2), asinNumber(3)];
    const search = (jobId: string, records: ReturnType<typeof searchRecord>[]) => ({
      organizationId: actor.organizationId,
      jobId,
      jobType: 'search' as const,
      config: {},
      targetIndex: 0,
      records,
      at: d.clock.now().toISOString(),
    });
    await d.catalog.historyRecorder.observe(
      search('job_1', [searchRecord({ asin: top, rank: 1, position: 1, page: 1 }), searchRecord({ asin: deep, rank: 60, position: 12, page: 3 })]),
    );
    // A one-page check without either: `top` has left page 1; nothing is known of page 3.
    const changes = await d.catalog.historyRecorder.observe(search('job_2', [searchRecord({ asin: other, rank: 1, position: 1, page: 1 })]));
    expect(changes.map((c) => [c.subject.asin, c.field, c.previous, c.current])).toEqual([
      [top, 'organicRank', 1, null],
      [top, 'page', 1, null],
    ]);
    const ranks = await d.catalog.history.keywordRanks(actor.organizationId, 'keyword', {});
    expect(ranks.points.filter((p) => p.asin === deep)).toMatchObject([{ organicRank: 60, page: 3, checks: 1 }]);
    // A partial result set (an organic item without its rank) marks nobody.
    const partial = await d.catalog.historyRecorder.observe(search('job_3', [searchRecord({ asin: other, position: 1, page: 1 })]));
    expect(partial).toEqual([]);
    await d.queues.close();
    await d.store.close();
  });
});
