import type { ResultRecord, SearchRecord } from '@crawl/contracts';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import type { Collection, CollectionOptions, Document, DocumentStore, Filter, FindOptions } from '@crawl/storage';
import { beforeAll, expect, it } from 'vitest';
import { positionOf } from './result-layout.ts';
import { RESULTS_COLLECTION, ResultRepository, type ResultDoc } from './result-repository.ts';
import { ResultStore, type ResultJob } from './result-store.ts';
import { asinNumber, productRecord, searchRecord } from '../../testing/result-records.ts';

type Item = SearchRecord;

/** Target `target`'s records; `tag` tells one write of a target from another (in the ASIN). */
const itemsFor = (target: number, count: number, tag = 'a'): Item[] =>
  Array.from({ length: count }, (_, i) =>
    searchRecord({ asin: `${tag}${target}-${i}`, keyword: `kw${target}`, position: i + 1, rank: i + 1, price: { amount: i, currency: 'EUR', raw: `${i} €` } }),
  );

/** A row's record as stored before rows had positions. */
const legacyItem = (target: number, seq: number): SearchRecord =>
  searchRecord({ asin: asinNumber(target * 100 + seq), keyword: `kw${target}`, position: seq + 1 });

/** A job document as pages see it: per-target counts and the maintained total. */
const jobOf = (id: string, counts: Array<number | undefined>): ResultJob => ({
  _id: id,
  resultCount: counts.reduce<number>((sum, c) => sum + (c ?? 0), 0),
  targets: counts.map((resultCount) => (resultCount === undefined ? {} : { resultCount })),
});

/** Records what `results` reads cost: the options and the number of rows of each find. */
function recordingFinds(inner: DocumentStore, log: Array<{ options: FindOptions | undefined; rows: number }>): DocumentStore {
  return {
    kind: inner.kind,
    ping: () => inner.ping(),
    close: () => inner.close(),
    collection<T extends Document>(name: string, options?: CollectionOptions): Collection<T> {
      const collection = inner.collection<T>(name, options);
      if (name !== RESULTS_COLLECTION) return collection;
      const find = async (filter: Filter, options?: FindOptions) => {
        const rows = await collection.find(filter, options);
        log.push({ options, rows: rows.length });
        return rows;
      };
      return new Proxy(collection, {
        get(target, property) {
          if (property === 'find') return find;
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

describeOnEachStore('ResultRepository and result pages', (open) => {
  let store: DocumentStore;
  let repo: ResultRepository;
  let results: ResultStore;

  beforeAll(async () => {
    store = await open();
    repo = new ResultRepository(store);
    await repo.init();
    results = new ResultStore({ rows: repo });
  });

  it('reads early and late pages as one index range of exactly the page', async () => {
    const counts = Array.from({ length: 12 }, (_, t) => (t % 5 === 4 ? 0 : 3 + (t % 7)));
    const all: Item[] = [];
    for (const [t, count] of counts.entries()) {
      await results.replaceTarget('job_pages', t, itemsFor(t, count));
      all.push(...itemsFor(t, count));
    }
    const job = jobOf('job_pages', counts);
    const log: Array<{ options: FindOptions | undefined; rows: number }> = [];
    const recorded = new ResultStore({ rows: new ResultRepository(recordingFinds(store, log)) });
    for (const size of [1, 7, 50]) {
      const lastPage = Math.ceil(all.length / size);
      for (const page of [1, 2, lastPage - 1, lastPage, lastPage + 1]) {
        log.length = 0;
        const read = await recorded.page(job, page, size);
        expect(read.items, `page ${page} of ${size}`).toEqual(all.slice((page - 1) * size, page * size));
        expect(read).toMatchObject({ page, pageSize: size, total: all.length });
        // One range read, no skip, no more rows than the page holds: the cost does not grow with the page number.
        expect(log.length).toBeLessThanOrEqual(1);
        expect(log.every((entry) => entry.options?.skip === undefined && entry.rows === read.items.length)).toBe(true);
      }
    }
  });

  it('continues from a cursor to the end, with page numbers and a null cursor at the end', async () => {
    const counts = [4, 0, 2, 5];
    for (const [t, count] of counts.entries()) await results.replaceTarget('job_cursor', t, itemsFor(t, count, 'c'));
    const job = jobOf('job_cursor', counts);
    const seen: ResultRecord[] = [];
    const pages: number[] = [];
    let read = await results.page(job, 1, 3);
    for (;;) {
      seen.push(...read.items);
      pages.push(read.page);
      if (read.nextCursor === null) break;
      expect(read.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      read = await results.pageFrom(job, read.nextCursor, 3);
    }
    expect(seen).toEqual(counts.flatMap((count, t) => itemsFor(t, count, 'c')));
    expect(pages).toEqual([1, 2, 3, 4]);
    // A cursor taken from page 1 with another page size still continues right after it.
    const first = await results.page(job, 1, 2);
    expect((await results.pageFrom(job, first.nextCursor as string, 5)).items).toEqual([
      ...itemsFor(0, 4, 'c').slice(2),
      ...itemsFor(2, 2, 'c'),
      itemsFor(3, 5, 'c')[0],
    ]);
    await expect(results.pageFrom(job, 'bm9wZQ', 3)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it("leaves out rows the job has not counted: a report still being written, or past a target's count", async () => {
    await results.replaceTarget('job_flight', 0, itemsFor(0, 3));
    await results.replaceTarget('job_flight', 1, itemsFor(1, 4));
    await results.replaceTarget('job_flight', 2, itemsFor(2, 2));
    // Target 1's report has not reached the job document yet; target 2 counted one row fewer.
    const job = jobOf('job_flight', [3, undefined, 1]);
    const page = await results.page(job, 1, 10);
    expect(page.items).toEqual([...itemsFor(0, 3), itemsFor(2, 2)[0]]);
    expect(page).toMatchObject({ total: 4, nextCursor: null });
    expect((await results.page(job, 2, 2)).items).toEqual([itemsFor(0, 3)[2], itemsFor(2, 2)[0]]);
  });

  it('rewrites a target: a shorter re-run drops the tail, others keep theirs, racing writers leave one copy', async () => {
    await repo.writeTarget('job_rewrite', 0, itemsFor(0, 6));
    await repo.writeTarget('job_rewrite', 1, itemsFor(1, 2));
    await repo.writeTarget('job_rewrite', 0, itemsFor(0, 2, 'z'));
    const range = await repo.readRange('job_rewrite', 0, positionOf(2, 0));
    expect(range.map((row) => row.item)).toEqual([...itemsFor(0, 2, 'z'), ...itemsFor(1, 2)]);
    expect(range.map((row) => [row.targetIndex, row.seq, row.position])).toEqual([
      [0, 0, 0],
      [0, 1, 1],
      [1, 0, positionOf(1, 0)],
      [1, 1, positionOf(1, 1)],
    ]);

    await Promise.all([
      repo.writeTarget('job_rewrite', 1, itemsFor(1, 10, 'x')),
      repo.writeTarget('job_rewrite', 1, itemsFor(1, 10, 'y')),
      repo.writeTarget('job_rewrite', 1, itemsFor(1, 10, 'x')),
    ]);
    const raced = await repo.readRange('job_rewrite', positionOf(1, 0), positionOf(2, 0));
    expect(raced.map((row) => row.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(raced.every((row) => String(row.item.asin).endsWith(`1-${row.seq}`))).toBe(true);

    await repo.clearTarget('job_rewrite', 0);
    expect(await repo.countRows('job_rewrite')).toBe(10);
    await repo.writeTarget('job_rewrite', 1, []);
    expect(await repo.countRows('job_rewrite')).toBe(0);
  });

  it('streams the stored item JSON and the parsed items in position order (target 10 after target 2)', async () => {
    await repo.writeTarget('job_stream', 10, itemsFor(10, 2));
    await repo.writeTarget('job_stream', 2, itemsFor(2, 3));
    const expected = [...itemsFor(2, 3), ...itemsFor(10, 2)];
    const texts: string[] = [];
    for await (const batch of repo.streamItemJson('job_stream')) texts.push(...batch);
    expect(texts.map((text) => JSON.parse(text))).toEqual(expected);
    const items: ResultRecord[] = [];
    for await (const batch of results.items('job_stream')) items.push(...batch);
    expect(items).toEqual(expected);
  });

  it('keeps a column record per target and unions them in target order; none for a counted target means unknown', async () => {
    // Every product record has these; the optional fields after them differ per record.
    const common = ['asin', 'title', 'url', 'quality.status', 'quality.missing', 'missingFields'];
    await results.replaceTarget('job_cols', 3, [
      productRecord({ brand: 'b', price: { amount: 1, currency: 'EUR', raw: '1 €' } }),
      productRecord({ rating: 4, brand: 'c' }),
    ]);
    await results.replaceTarget('job_cols', 0, [productRecord({ coupon: 'Save 5%' }), productRecord({ deal: 'Deal', brand: 'b' })]);
    expect((await repo.columnRecords('job_cols')).map((r) => [r.targetIndex, r.columns])).toEqual([
      [0, [...common, 'coupon', 'deal', 'brand']],
      [3, [...common, 'brand', 'price.amount', 'price.currency', 'price.raw', 'rating']],
    ]);
    expect(await results.csvColumns(jobOf('job_cols', [2, 0, 0, 2]))).toEqual([
      ...common,
      'coupon',
      'deal',
      'brand',
      'price.amount',
      'price.currency',
      'price.raw',
      'rating',
    ]);
    // Target 2 has results but no record (written before records existed): the export must scan.
    expect(await results.csvColumns(jobOf('job_cols', [2, 0, 1, 2]))).toBeNull();
    await results.clearTarget('job_cols', 3);
    expect((await repo.columnRecords('job_cols')).map((r) => r.targetIndex)).toEqual([0]);
    await results.replaceTarget('job_cols', 0, []);
    expect(await repo.columnRecords('job_cols')).toEqual([]);
  });

  it('gives rows written before positions existed their position on start, once', async () => {
    const fresh = await open();
    const raw = fresh.collection<Omit<ResultDoc, 'position'>>(RESULTS_COLLECTION);
    // Targets 0, 2 and 10 (10 must sort after 2) with 4 rows each: three backfill batches of 5.
    const legacyTargets = [0, 2, 10];
    for (const t of legacyTargets) {
      for (let seq = 0; seq < 4; seq += 1) await raw.insertOne({ _id: `job_old:${t}:${seq}`, jobId: 'job_old', targetIndex: t, seq, item: legacyItem(t, seq) });
    }
    await raw.insertOne({ _id: 'job_older:0:0', jobId: 'job_older', targetIndex: 0, seq: 0, item: searchRecord({ keyword: 'other' }) });
    const legacy = new ResultRepository(fresh);
    expect(await legacy.backfillPositions({ batchSize: 5 })).toBe(13);
    const stored = await fresh.collection<ResultDoc>(RESULTS_COLLECTION).find({});
    expect(stored).toHaveLength(13);
    expect(stored.every((row) => row.position === positionOf(row.targetIndex, row.seq))).toBe(true);

    const restartedRows = new ResultRepository(fresh);
    await restartedRows.init();
    const restarted = new ResultStore({ rows: restartedRows });
    expect(await legacy.backfillPositions()).toBe(0);
    const counts = Array.from({ length: 11 }, (_, t) => (legacyTargets.includes(t) ? 4 : 0));
    const job = jobOf('job_old', counts);
    expect((await restarted.page(job, 1, 3)).items).toEqual([legacyItem(0, 0), legacyItem(0, 1), legacyItem(0, 2)]);
    expect((await restarted.page(job, 3, 3)).items).toEqual([legacyItem(2, 2), legacyItem(2, 3), legacyItem(10, 0)]);
    expect((await restarted.page(job, 4, 3)).items).toEqual([legacyItem(10, 1), legacyItem(10, 2), legacyItem(10, 3)]);
    // A rewrite of an old target replaces its rows; the export scans for columns (no records).
    await restarted.replaceTarget('job_old', 10, [legacyItem(10, 9)]);
    expect(await legacy.countRows('job_old')).toBe(9);
    expect(await restarted.csvColumns(job)).toBeNull();
  });
});
