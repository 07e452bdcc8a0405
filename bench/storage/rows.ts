// Result rows shaped like the search parser's items (deterministic: the bench reports them to the
// service, and the bare export server regenerates the same rows from the same sizes), and the
// "bare" export streams of those rows that the bare server's routes send.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { format as csvFormat } from 'fast-csv';

/** A deterministic search item (like `SearchItem` from @crawl/marketplace) for target `t`, position `i`. */
export function searchItem(keyword: string, t: number, i: number): Record<string, unknown> {
  const n = t * 100_003 + i;
  const asin = `B0${n.toString(36).toUpperCase().padStart(8, '0')}`;
  const amount = Math.round((5 + ((n * 7919) % 50_000) / 100) * 100) / 100;
  return {
    asin,
    title: `Bench product ${n} for ${keyword}, wireless, with a reasonably long marketplace title`,
    url: `https://www.amazon.com/dp/${asin}`,
    image: `https://m.media-amazon.com/images/I/${asin}._AC_UL320_.jpg`,
    price: { amount, currency: 'USD', raw: `$${amount.toFixed(2)}` },
    ...(i % 5 === 0 ? { listPrice: { amount: amount + 10, currency: 'USD', raw: `$${(amount + 10).toFixed(2)}` } } : {}),
    ...(i % 7 === 3 ? {} : { rank: i + 1 }),
    position: i + 1,
    sponsored: i % 7 === 3,
    rating: 3 + (n % 20) / 10,
    reviewCount: (n * 31) % 40_000,
    prime: n % 3 !== 0,
    keyword,
    page: 1 + Math.floor(i / 48),
  };
}

/** The keywords and items of a search job with `rows` rows, `itemsPerReport` per target: one keyword per target. */
export function resultTargets(label: string, rows: number, itemsPerReport: number): { keyword: string; items: Record<string, unknown>[] }[] {
  const targets = Math.max(1, Math.ceil(rows / itemsPerReport));
  return Array.from({ length: targets }, (_, t) => {
    const keyword = `bench ${label} keyword ${t}`;
    const count = Math.floor(rows / targets) + (t < rows % targets ? 1 : 0);
    return { keyword, items: Array.from({ length: count }, (_, i) => searchItem(keyword, t, i)) };
  });
}

/** Nested objects become dotted columns (`price.amount`), as the service's CSV export does. */
function flatten(item: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(item)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value as Record<string, unknown>, path, out);
    else out[path] = value;
  }
  return out;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function csvColumns(items: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(flatten(item))) seen.add(key);
  return [...seen];
}

/** Rows → flatten → fast-csv `format()`: a header line, then one line per item (`columns` in that order). */
export function csvStream(items: readonly Record<string, unknown>[], columns: readonly string[]): Readable {
  function* rows(): Generator<string[]> {
    yield [...columns];
    for (const item of items) {
      const flat = flatten(item);
      yield columns.map((column) => cell(flat[column]));
    }
  }
  const formatter = csvFormat<string[], string[]>({ headers: null, includeEndRowDelimiter: true });
  pipeline(Readable.from(rows()), formatter).catch((error: unknown) => formatter.destroy(error instanceof Error ? error : new Error(String(error))));
  return formatter;
}

/** Rows → `JSON.stringify` per item, as one JSON array: `[`, each item on its own line, comma-separated, then `]`. */
export function jsonStream(items: readonly Record<string, unknown>[]): Readable {
  function* chunks(): Generator<string> {
    yield '[';
    let first = true;
    for (const item of items) {
      yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
      first = false;
    }
    yield first ? ']' : '\n]\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}
