import { REQUIRABLE_FIELDS } from '@crawl/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { productRecord } from '../../testing/result-records.ts';

describe('config.require: the record fields a job needs', () => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;

  const createJob = (body: unknown) => h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body });
  const createSchedule = (crawlConfig: unknown) =>
    h.request({ method: 'POST', url: `/projects/${projectId}/schedules`, token: alice.token, body: { cron: '0 6 * * *', crawlConfig } });

  beforeEach(async () => {
    h = await startCatalogHarness();
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  it("takes the fields of the job type's record, keeps them on the job next to other keys, and a retry keeps them", async () => {
    const details = await createJob({ type: 'details', targets: ['B000000001'], config: { require: ['price', 'starHistogram', 'deliverTo'], mine: 1 } });
    expect(details.status).toBe(201);
    expect(details.body.data.config).toEqual({ require: ['price', 'starHistogram', 'deliverTo'], mine: 1 });
    const search = await createJob({ type: 'search', targets: ['kettle'], config: { require: ['price', 'boughtInPastMonth'] } });
    expect(search.status).toBe(201);

    await h.report(details.body.data.id, 0, { status: 'success', items: [productRecord()] });
    const retried = await h.request({ method: 'POST', url: `/jobs/${details.body.data.id}/retry`, token: alice.token });
    expect(retried.status).toBe(201);
    expect(retried.body.data.config.require).toEqual(['price', 'starHistogram', 'deliverTo']);
  });

  it('checks the config again on retry (a job stored before the rule)', async () => {
    const job = (await createJob({ type: 'details', targets: ['B000000001'] })).body.data;
    await h.report(job.id, 0, { status: 'success', items: [productRecord()] });
    await h.context.store.collection('jobs').updateOne({ _id: job.id }, { $set: { config: { require: ['price', 'colour'] } } });
    const retried = await h.request({ method: 'POST', url: `/jobs/${job.id}/retry`, token: alice.token });
    expect(retried.status).toBe(400);
    expect(retried.body.error.message).toMatch(/^config\.require\[1\] "colour" is not a field of details records; fields of details records: asin, /);
    expect(h.billing.reservations.size).toBe(1);
  });

  it('offers every record field but the bookkeeping ones', () => {
    expect(REQUIRABLE_FIELDS.details).toEqual(expect.arrayContaining(['asin', 'title', 'price', 'brand', 'starHistogram', 'deliverTo']));
    expect(REQUIRABLE_FIELDS.search).toEqual(expect.arrayContaining(['asin', 'rank', 'sponsored', 'boughtInPastMonth']));
    for (const fields of Object.values(REQUIRABLE_FIELDS)) {
      for (const bookkeeping of ['missingFields', 'quality', 'location']) expect(fields).not.toContain(bookkeeping);
    }
    expect(REQUIRABLE_FIELDS.details).not.toContain('keyword');
  });

  const detailsList = REQUIRABLE_FIELDS.details.join(', ');
  it.each([
    [
      'an unknown name',
      { require: ['price', 'colour'] },
      `config.require[1] "colour" is not a field of details records; fields of details records: ${detailsList}`,
    ],
    [
      'a field of the other kind of record',
      { require: ['keyword'] },
      `config.require[0] "keyword" is not a field of details records; fields of details records: ${detailsList}`,
    ],
    ['a name given twice', { require: ['price', 'rating', 'price'] }, `config.require[2] "price" is listed twice; fields of details records: ${detailsList}`],
    [
      'more than 40 names',
      { require: REQUIRABLE_FIELDS.details.slice(0, 41) },
      `config.require must name at most 40 fields (got 41); fields of details records: ${detailsList}`,
    ],
  ])('answers %s with 400 naming the entry and the allowed fields, reserving nothing', async (_label, config, message) => {
    const res = await createJob({ type: 'details', targets: ['B000000001'], config });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message, details: [message] } });
    expect(h.billing.reservations.size).toBe(0);
  });

  const searchList = REQUIRABLE_FIELDS.search.join(', ');
  it.each([
    ['a number', { require: ['price', 42] }, `config.require[1] must be a field name, got 42; fields of search records: ${searchList}`],
    ['an operator object', { require: [{ $ne: null }] }, `config.require[0] must be a field name, got an object; fields of search records: ${searchList}`],
    ['null', { require: ['rank', null] }, `config.require[1] must be a field name, got null; fields of search records: ${searchList}`],
  ])('answers %s among the names with 400 naming the entry and the allowed fields', async (_label, config, message) => {
    const res = await createJob({ type: 'search', targets: ['kettle'], config });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message, details: [message] } });
    expect(h.billing.reservations.size).toBe(0);
  });

  it('answers a single name instead of a list with 400', async () => {
    const res = await createJob({ type: 'search', targets: ['kettle'], config: { require: 'price' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'config.require must be an array' });
  });

  it('checks a search job against search records', async () => {
    const res = await createJob({ type: 'search', targets: ['kettle'], config: { require: ['brand'] } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `config.require[0] "brand" is not a field of search records; fields of search records: ${REQUIRABLE_FIELDS.search.join(', ')}`,
    );
  });

  it("checks a schedule's crawlConfig at create and update the same way", async () => {
    const bad = await createSchedule({ type: 'details', targets: ['B000000001'], config: { require: ['colour'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^crawlConfig\.config\.require\[0\] "colour" is not a field of details records; fields of details records: asin, /);

    const good = await createSchedule({ type: 'details', targets: ['B000000001'], config: { require: ['price'] } });
    expect(good.status).toBe(201);
    expect(good.body.data.crawlConfig.config).toEqual({ require: ['price'] });
    const update = (crawlConfig: unknown) => h.request({ method: 'PATCH', url: `/schedules/${good.body.data.id}`, token: alice.token, body: { crawlConfig } });
    const twice = await update({ type: 'search', targets: ['kettle'], config: { require: ['rank', 'rank'] } });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/^crawlConfig\.config\.require\[1\] "rank" is listed twice; fields of search records: asin, /);
    const fine = await update({ type: 'search', targets: ['kettle'], config: { require: ['rank'] } });
    expect(fine.status).toBe(200);
    expect(fine.body.data.crawlConfig.config).toEqual({ require: ['rank'] });
  });
});
