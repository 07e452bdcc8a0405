import { Readable } from 'node:stream';
import { format as csvFormat } from 'fast-csv';

/** Most useful columns first when they are present; the rest follow in first-seen order. */
const PREFERRED_COLUMNS = ['asin', 'title', 'price.amount', 'price.currency', 'price.raw', 'rank', 'sponsored', 'rating', 'reviewCount', 'url'];
export const MAX_CSV_COLUMNS = 200;
const MAX_FLATTEN_DEPTH = 3;

/**
 * Cells a spreadsheet would run as a formula start with `=`, `+`, `-`, `@`, tab, CR or LF; such
 * cells get a leading `'`. (Checked by character code: this runs for every cell of an export.)
 */
export function protectCell(text: string): string {
  switch (text.charCodeAt(0)) {
    case 61: // =
    case 43: // +
    case 45: // -
    case 64: // @
    case 9: // tab
    case 13: // CR
    case 10: // LF
      return `'${text}`;
    default:
      return text;
  }
}

/** A non-empty plain object (empty ones and arrays are written whole). */
function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** `{price: {amount: 1, currency: 'EUR'}}` → `{'price.amount': 1, 'price.currency': 'EUR'}`; arrays stay whole. */
export function flattenItem(item: Record<string, unknown>, prefix = '', depth = 0, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const key of Object.keys(item)) {
    const value = item[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (depth < MAX_FLATTEN_DEPTH && isNonEmptyObject(value)) flattenItem(value, path, depth + 1, out);
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

/** Distinct flattened keys kept per export before ordering (memory stays bounded). */
export const MAX_SEEN_COLUMNS = MAX_CSV_COLUMNS * 4;

/** Adds keys in order until `seen` holds MAX_SEEN_COLUMNS names. */
function addColumns(seen: Set<string>, keys: Iterable<string>): void {
  for (const key of keys) {
    if (seen.size >= MAX_SEEN_COLUMNS) break;
    seen.add(key);
  }
}

/** The flattened keys of `items` in first-seen order (capped): what a target contributes to the header. */
export function columnsOfItems(items: Iterable<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.size >= MAX_SEEN_COLUMNS) break;
    addColumns(seen, Object.keys(flattenItem(item)));
  }
  return [...seen];
}

/**
 * The keys of consecutive runs of items (targets in order) in first-seen order: the same names
 * as `columnsOfItems` over all the items at once, since a key first seen in a later run is new there.
 */
export function unionColumns(lists: Iterable<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) addColumns(seen, list);
  return [...seen];
}

function orderColumns(seen: ReadonlySet<string>): string[] {
  const preferred = PREFERRED_COLUMNS.filter((c) => seen.has(c));
  const rest = [...seen].filter((c) => !PREFERRED_COLUMNS.includes(c));
  return [...preferred, ...rest].slice(0, MAX_CSV_COLUMNS);
}

/**
 * CSV of the stored items through fast-csv. `columns` are the item keys in first-seen order
 * (`unionColumns` of the per-target records kept at write time): the rows are read once. Without
 * them a first pass collects the names (memory grows with the number of columns, not rows).
 * Items come a batch at a time. Rows are written straight into the formatter, waiting only when it
 * asks to (backpressure); when the consumer goes away the reading stops and the store's cursor is
 * closed.
 */
export function csvExport(items: () => AsyncIterable<readonly Record<string, unknown>[]>, columns?: readonly string[]): Readable {
  const formatter = csvFormat<string[], string[]>({ headers: null, includeEndRowDelimiter: true });
  const writable = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        formatter.off('drain', done);
        formatter.off('close', done);
        resolve();
      };
      formatter.on('drain', done);
      formatter.on('close', done);
    });
  const produce = async () => {
    let seen: Set<string>;
    if (columns) seen = new Set(columns.slice(0, MAX_SEEN_COLUMNS));
    else {
      seen = new Set<string>();
      for await (const batch of items()) {
        if (formatter.destroyed) return;
        for (const item of batch) addColumns(seen, Object.keys(flattenItem(item)));
      }
    }
    const ordered = orderColumns(seen);
    if (!formatter.write(ordered.map(protectCell))) await writable();
    if (ordered.length > 0) {
      for await (const batch of items()) {
        for (const item of batch) {
          if (formatter.destroyed) return;
          const flat = flattenItem(item);
          const row = new Array<string>(ordered.length);
          for (let i = 0; i < ordered.length; i += 1) row[i] = csvCell(flat[ordered[i] as string]);
          if (!formatter.write(row)) await writable();
        }
      }
    }
    formatter.end();
  };
  produce().catch((error: unknown) => formatter.destroy(error instanceof Error ? error : new Error(String(error))));
  return coalesced(formatter, OUTPUT_CHUNK_BYTES);
}

/** Output is handed on in chunks of about this many bytes (characters for JSON), not one write per row. */
const OUTPUT_CHUNK_BYTES = 64 * 1024;

/**
 * `source`'s bytes in chunks of at least `chunkBytes` (the last may be shorter). fast-csv emits
 * one small buffer per row; handed on as they are, each would be its own socket write.
 * Backpressure and teardown pass through: a full consumer pauses the source, and destroying the
 * result destroys the source (which stops the producer feeding it).
 */
export function coalesced(source: Readable, chunkBytes: number): Readable {
  let parts: Buffer[] = [];
  let length = 0;
  const out = new Readable({
    read() {
      source.resume();
    },
    destroy(error, callback) {
      source.destroy();
      callback(error);
    },
  });
  const flush = (): boolean => {
    if (length === 0) return true;
    const chunk = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length);
    parts = [];
    length = 0;
    return out.push(chunk);
  };
  source.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    length += chunk.length;
    if (length >= chunkBytes && !flush()) source.pause();
  });
  source.once('end', () => {
    flush();
    out.push(null);
  });
  source.once('error', (error) => out.destroy(error));
  return out;
}

/** Output is handed on in chunks of about this many characters, not one write per row. */
const JSON_CHUNK_CHARS = 64 * 1024;

/**
 * A JSON array of already-serialized items (the stored JSON text, passed through unparsed, a
 * batch at a time): `[`, then each item on its own line, comma-separated, then `]`.
 */
export function jsonTextExport(texts: () => AsyncIterable<readonly string[]>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let buffer = '[';
    let first = true;
    for await (const batch of texts()) {
      for (const text of batch) {
        buffer += first ? `\n${text}` : `,\n${text}`;
        first = false;
      }
      if (buffer.length >= JSON_CHUNK_CHARS) {
        yield buffer;
        buffer = '';
      }
    }
    yield buffer + (first ? ']' : '\n]\n');
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** A JSON array of the items (a batch at a time), one item serialized at a time. */
export function jsonExport(items: () => AsyncIterable<readonly Record<string, unknown>[]>): Readable {
  return jsonTextExport(async function* () {
    for await (const batch of items()) yield batch.map((item) => JSON.stringify(item));
  });
}
