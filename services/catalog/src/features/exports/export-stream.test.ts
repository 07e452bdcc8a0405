import type { ResultRecord } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { format as csvFormat } from 'fast-csv';
import { productRecord } from '../../testing/result-records.ts';
import { flattenItem } from '../results/index.ts';
import { csvCell, csvExport, csvLine, jsonExport, protectCell } from './export-stream.ts';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

/**
 * The items in batches of two, as a store streams them. The writer's column and cell rules hold for
 * whatever keys a stored record has, so most tests here hand it objects of just the keys at issue.
 */
async function* from(items: readonly object[]): AsyncGenerator<ResultRecord[]> {
  for (let i = 0; i < items.length; i += 2) yield items.slice(i, i + 2) as ResultRecord[];
}

describe('export streams', () => {
  it.each(['=1+1', '+1', '-1', '@x', '\tx', '\rx', '\nx'])('prefixes the formula-like cell %j with a quote', (value) => {
    expect(protectCell(value)).toBe(`'${value}`);
  });

  it('leaves ordinary cells and numbers alone', () => {
    expect(protectCell('laptop')).toBe('laptop');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(['=a'])).toBe('["=a"]');
    expect(csvCell({ f: '=x' })).toBe('{"f":"=x"}');
  });

  it('flattens nested objects into dotted columns and keeps arrays whole', () => {
    expect(flattenItem({ asin: 'A', price: { amount: 1, currency: 'EUR' }, images: ['a', 'b'], empty: {} })).toEqual({
      asin: 'A',
      'price.amount': 1,
      'price.currency': 'EUR',
      images: ['a', 'b'],
      empty: {},
    });
  });

  it('flattens the nested fields of a product record into dotted columns, keeping label tables and arrays in one JSON cell', async () => {
    const record = productRecord({
      asin: 'B0X',
      title: 'Book',
      price: { amount: 9.99, currency: 'EUR', raw: '9,99 €' },
      savings: { price: { amount: 5, currency: 'EUR', raw: '5,00 €' }, percent: 33 },
      starHistogram: { fiveStar: 80, oneStar: 2 },
      firstAvailable: { raw: '5. März 2021', date: '2021-03-05' },
      specifications: { 'Marke.Name': '=Nordvik', Farbe: 'Schwarz' },
      details: { Verlag: 'Heyne' },
      bestSellersRank: [{ rank: 5, category: 'Bücher' }],
    });
    expect(Object.keys(flattenItem(record))).toEqual([
      'asin',
      'title',
      'url',
      'quality.status',
      'quality.missing',
      'missingFields',
      'price.amount',
      'price.currency',
      'price.raw',
      'savings.price.amount',
      'savings.price.currency',
      'savings.price.raw',
      'savings.percent',
      'starHistogram.fiveStar',
      'starHistogram.oneStar',
      'firstAvailable.raw',
      'firstAvailable.date',
      'specifications',
      'details',
      'bestSellersRank',
    ]);
    const [header, row] = (await text(csvExport(() => from([record])))).split('\n');
    expect(header).toContain('savings.price.raw,savings.percent,starHistogram.fiveStar,starHistogram.oneStar');
    expect(row).toContain('"{""Marke.Name"":""=Nordvik"",""Farbe"":""Schwarz""}"');
    expect(row).toContain('"[{""rank"":5,""category"":""Bücher""}]"');
  });

  it('writes CSV with the preferred columns first and the union of keys', async () => {
    const items = [
      { rank: 1, title: 'A', asin: 'X1', price: { amount: 2.5, currency: 'EUR' }, extra: 'e' },
      { asin: 'X2', title: 'B, with comma', other: '=cmd' },
    ];
    const out = await text(csvExport(() => from(items)));
    expect(out.split('\n').slice(0, 3)).toEqual([
      'asin,title,price.amount,price.currency,rank,extra,other',
      'X1,A,2.5,EUR,1,e,',
      `X2,"B, with comma",,,,,'=cmd`,
    ]);
  });

  it('protects header cells too', async () => {
    const out = await text(csvExport(() => from([{ '=evil': 1 }])));
    expect(out.split('\n')[0]).toBe(`'=evil`);
  });

  it('writes a JSON array', async () => {
    expect(JSON.parse(await text(jsonExport(() => from([{ a: 1 }, { b: [2] }]))))).toEqual([{ a: 1 }, { b: [2] }]);
    expect(JSON.parse(await text(jsonExport(() => from([]))))).toEqual([]);
  });

  it('hands CSV on in large chunks, byte for byte the rows', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ asin: `A${i}`, title: 'x'.repeat(40) }));
    const chunks: Buffer[] = [];
    for await (const chunk of csvExport(() => from(items))) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThan(10);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines[0]).toBe('asin,title');
    expect(lines[3000]).toBe(`A2999,${'x'.repeat(40)}`);
    expect(lines).toHaveLength(3002);
  });

  it('writes each line byte for byte as fast-csv does, whatever the cells hold', async () => {
    // A seeded generator over the characters that matter to CSV quoting (and a few that do not).
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ['a', 'Z', '1', ' ', ',', '"', '|', '\r', '\n', '\0', '=', '-', "'", ';', '\t', 'é', '€', '\\'];
    const cell = () => Array.from({ length: Math.floor(next() * 6) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    const rows = Array.from({ length: 2000 }, () => Array.from({ length: 1 + Math.floor(next() * 5) }, cell));
    rows.push([''], ['', ''], ['"'], ['\0'], ['a|b']);
    const formatter = csvFormat<string[], string[]>({ headers: null, includeEndRowDelimiter: true });
    const expected = text(formatter);
    for (const row of rows) formatter.write(row);
    formatter.end();
    expect(rows.map(csvLine).join('')).toBe(await expected);
  });

  it('reads the next batch only when the consumer wants more, and closes the source when the consumer goes away', async () => {
    let batches = 0;
    let closed = false;
    async function* source() {
      try {
        for (;;) {
          batches += 1;
          yield Array.from({ length: 500 }, (_, i) => productRecord({ asin: `A${i}`, title: 'x'.repeat(100) }));
        }
      } finally {
        closed = true;
      }
    }
    const out = csvExport(source, ['asin', 'title']);
    await new Promise<void>((resolve) =>
      out.once('data', () => {
        out.pause();
        resolve();
      }),
    );
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    const whilePaused = batches;
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toBe(whilePaused);
    // The stream's buffer (16 KB) plus one 64 KB chunk: a handful of batches, not an endless read.
    expect(batches).toBeLessThan(10);
    out.destroy();
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
  });

  it('passes a source error on', async () => {
    async function* source(): AsyncGenerator<ResultRecord[]> {
      yield [productRecord({ asin: 'A' })];
      throw new Error('disk gone');
    }
    const out = csvExport(source, ['asin']);
    const failed = new Promise<Error>((resolve) => out.once('error', resolve));
    out.resume();
    expect((await failed).message).toBe('disk gone');
  });
});
