import { Readable, pipeline, PassThrough } from 'node:stream';
import { format as csvFormat } from 'fast-csv';

/** Most useful columns first when they are present; the rest follow in first-seen order. */
const PREFERRED_COLUMNS = ['asin', 'title', 'price.amount', 'price.currency', 'price.raw', 'rank', 'sponsored', 'rating', 'reviewCount', 'url'];
export const MAX_CSV_COLUMNS = 200;
const MAX_FLATTEN_DEPTH = 3;

/** Cells a spreadsheet would run as a formula start with one of these; such cells get a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r\n]/;

export function protectCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `{price: {amount: 1, currency: 'EUR'}}` → `{'price.amount': 1, 'price.currency': 'EUR'}`; arrays stay whole. */
export function flattenItem(item: Record<string, unknown>, prefix = '', depth = 0, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(item)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && depth < MAX_FLATTEN_DEPTH && Object.keys(value).length > 0) flattenItem(value, path, depth + 1, out);
    else out[path] = value;
  }
  return out;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return protectCell(value);
  return protectCell(JSON.stringify(value));
}

function orderColumns(seen: Set<string>): string[] {
  const preferred = PREFERRED_COLUMNS.filter((c) => seen.has(c));
  const rest = [...seen].filter((c) => !PREFERRED_COLUMNS.includes(c));
  return [...preferred, ...rest].slice(0, MAX_CSV_COLUMNS);
}

/**
 * CSV in two passes over the stored items: the first collects the column names (memory grows
 * with the number of columns, not rows), the second writes the rows through fast-csv.
 */
export function csvExport(items: () => AsyncIterable<Record<string, unknown>>): Readable {
  async function* rows(): AsyncGenerator<string[]> {
    const seen = new Set<string>();
    for await (const item of items()) {
      for (const key of Object.keys(flattenItem(item))) {
        if (seen.size >= MAX_CSV_COLUMNS * 4) break;
        seen.add(key);
      }
    }
    const columns = orderColumns(seen);
    yield columns.map(protectCell);
    if (columns.length === 0) return;
    for await (const item of items()) {
      const flat = flattenItem(item);
      yield columns.map((column) => csvCell(flat[column]));
    }
  }
  const formatter = csvFormat<string[], string[]>({ headers: null, includeEndRowDelimiter: true });
  const out = new PassThrough();
  pipeline(Readable.from(rows()), formatter, out, () => undefined);
  return out;
}

/** A JSON array of the items, one item serialized at a time. */
export function jsonExport(items: () => AsyncIterable<Record<string, unknown>>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield '[';
    let first = true;
    for await (const item of items()) {
      yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
      first = false;
    }
    yield first ? ']' : '\n]\n';
  }
  return Readable.from(chunks(), { objectMode: false });
}
