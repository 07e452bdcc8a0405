import type { ResultRecord } from '@crawl/contracts';
import { describeOnEachStore } from '@crawl/testkit/each-store';
import type { DocumentStore } from '@crawl/storage';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEEN_COLUMNS, ResultRepository, ResultStore, type ResultJob } from '../results/index.ts';
import { csvExport, jsonExport } from './export-stream.ts';
import { productRecord } from '../../testing/result-records.ts';
import { exportJobResults } from './export-service.ts';

type Item = ResultRecord;

/**
 * A stored record of just the keys at issue: the export's column rules hold for whatever keys a
 * record has (fields added over time, a record stored by an older crawler).
 */
const stored = (fields: object): Item => fields as Item;

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

/** The items in batches of three, as a store streams them (batch edges land mid-target). */
async function* from(items: Item[]) {
  for (let i = 0; i < items.length; i += 3) yield items.slice(i, i + 3);
}

const jobOf = (id: string, targets: Item[][]): ResultJob => ({
  _id: id,
  resultCount: targets.reduce((sum, items) => sum + items.length, 0),
  targets: targets.map((items) => ({ resultCount: items.length })),
});

/** Targets whose keys vary: preferred columns late, nested objects, arrays, formula-like text. */
const mixedTargets = (): Item[][] => [
  [
    stored({ rank: 1, title: '=SUM(A1)', extra: 'e', price: { amount: 2.5, currency: 'EUR', raw: '€2.50' } }),
    stored({ title: 'B, "quoted"', tags: ['x', 'y'], sponsored: true }),
  ],
  [],
  [stored({ asin: 'B000000003', '@key': '-1', deep: { a: { b: { c: { d: 1 } } } }, empty: {} }), stored({ other: null, rating: 4.5, n: -3 })],
  [stored({ url: 'https://example.com/dp/B000000004', reviewCount: 12, note: '\tindented' })],
];

describeOnEachStore('job export', (open, backend) => {
  let store: DocumentStore;
  let results: ResultStore;
  let rows: ResultRepository;

  beforeAll(async () => {
    store = await open();
    rows = new ResultRepository(store);
    await rows.init();
    results = new ResultStore({ rows });
  });

  /** Writes targets the way reports do now (with column records), or as before them (rows only). */
  async function writeJob(id: string, targets: Item[][], withRecords: boolean): Promise<ResultJob> {
    for (const [index, items] of targets.entries()) {
      if (withRecords) await results.replaceTarget(id, index, items);
      else await rows.writeTarget(id, index, items);
    }
    return jobOf(id, targets);
  }

  it('CSV from the column records, CSV from a first pass (old data) and the reference two-pass CSV are byte-identical', async () => {
    const targets = mixedTargets();
    const reference = await text(csvExport(() => from(targets.flat())));
    const recorded = await writeJob('job_csv_new', targets, true);
    expect(await results.csvColumns(recorded)).not.toBeNull();
    const old = await writeJob('job_csv_old', targets, false);
    expect(await results.csvColumns(old)).toBeNull();
    const fromRecords = await text(await exportJobResults(results, recorded, 'csv'));
    const fromScan = await text(await exportJobResults(results, old, 'csv'));
    expect(fromRecords).toBe(reference);
    expect(fromScan).toBe(reference);
    expect(reference.split('\n')[0]).toBe(
      "asin,title,price.amount,price.currency,price.raw,rank,sponsored,rating,reviewCount,url,extra,tags,'@key,deep.a.b.c,empty,other,n,note",
    );
    expect(reference).toContain(`'=SUM(A1)`);
  });

  it('caps the column names exactly like the single scan when targets bring many keys', async () => {
    const wide = (prefix: string, from: number, count: number, last?: string): Item => {
      const fields = new Map<string, unknown>();
      for (let i = from; i < from + count; i += 1) fields.set(`${prefix}${i}`, i);
      if (last) fields.set(last, 'late');
      return stored(Object.fromEntries(fields));
    };
    // 500 keys, then 500 of which 100 repeat, then `url` and `title` past the cap: they must not
    // jump to the front as preferred columns.
    const targets = [[wide('k', 0, 500)], [wide('k', 400, 500, 'url')], [stored({ k1: 1, title: 't' })]];
    expect(MAX_SEEN_COLUMNS).toBe(800);
    const reference = await text(csvExport(() => from(targets.flat())));
    const job = await writeJob('job_csv_wide', targets, true);
    expect(await text(await exportJobResults(results, job, 'csv'))).toBe(reference);
    const header = reference.split('\n')[0] ?? '';
    expect(header.split(',')).toEqual(Array.from({ length: 200 }, (_, i) => `k${i}`));
  });

  it('JSON passes the stored item JSON through in results order, framed exactly like the item serializer', async () => {
    const targets = mixedTargets();
    const job = await writeJob('job_json', targets, true);
    const exported = await text(await exportJobResults(results, job, 'json'));
    expect(exported).toBe(await text(jsonExport(() => from(targets.flat()))));
    expect(exported.startsWith('[\n{')).toBe(true);
    expect(exported.endsWith('}\n]\n')).toBe(true);
    expect(await text(await exportJobResults(results, jobOf('job_json_empty', []), 'json'))).toBe('[]');
    expect(await text(await exportJobResults(results, jobOf('job_json_empty', []), 'csv'))).toBe(await text(csvExport(() => from([]))));
  });

  it('streams a large result set in chunks and in order', async () => {
    // More than a stream batch (500) per target; fewer on the slow wire backend.
    const perTarget = backend === 'embedded' ? 1500 : 300;
    const targets = [0, 1, 2].map((t) => Array.from({ length: perTarget }, (_, i) => stored({ asin: `A${t}-${i}`, rank: i })));
    const job = await writeJob('job_big', targets, true);
    const json = await text(await exportJobResults(results, job, 'json'));
    const parsed = JSON.parse(json) as Item[];
    expect(parsed).toEqual(targets.flat());
    const csv = (await text(await exportJobResults(results, job, 'csv'))).trim().split('\n');
    expect(csv).toHaveLength(3 * perTarget + 1);
    expect(csv[1]).toBe('A0-0,0');
    expect(csv[3 * perTarget]).toBe(`A2-${perTarget - 1},${perTarget - 1}`);
  });
});

describe('export streams and their consumer', () => {
  it.each(['csv', 'json'] as const)('%s: a consumer that goes away stops the reading and closes the store cursor', async (format) => {
    let produced = 0;
    let closed = false;
    async function* endless() {
      try {
        for (;;) {
          produced += 1;
          yield [productRecord({ asin: `A${produced}`, title: 'x'.repeat(200) })];
        }
      } finally {
        closed = true;
      }
    }
    const stream = format === 'csv' ? csvExport(endless, ['asin', 'title']) : jsonExport(endless);
    for await (const chunk of stream) {
      expect(String(chunk).length).toBeGreaterThan(0);
      break; // destroys the stream
    }
    for (let i = 0; i < 50 && !closed; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
    const stoppedAt = produced;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBe(stoppedAt);
  });
});
