import { describe, expect, it } from 'vitest';
import { csvCell, csvExport, flattenItem, jsonExport, protectCell } from './export-stream.ts';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

async function* from(items: Record<string, unknown>[]) {
  for (const item of items) yield item;
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

  it('writes CSV with the preferred columns first and the union of keys', async () => {
    const items = [
      { rank: 1, title: 'A', asin: 'X1', price: { amount: 2.5, currency: 'EUR' }, extra: 'e' },
      { asin: 'X2', title: 'B, with comma', other: '=cmd' },
    ];
    const out = await text(csvExport(() => from(items)));
    expect(out.split('\n').slice(0, 3)).toEqual(['asin,title,price.amount,price.currency,rank,extra,other', 'X1,A,2.5,EUR,1,e,', `X2,"B, with comma",,,,,'=cmd`]);
  });

  it('protects header cells too', async () => {
    const out = await text(csvExport(() => from([{ '=evil': 1 }])));
    expect(out.split('\n')[0]).toBe(`'=evil`);
  });

  it('writes a JSON array', async () => {
    expect(JSON.parse(await text(jsonExport(() => from([{ a: 1 }, { b: [2] }]))))).toEqual([{ a: 1 }, { b: [2] }]);
    expect(JSON.parse(await text(jsonExport(() => from([]))))).toEqual([]);
  });
});
