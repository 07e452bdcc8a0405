import { Readable } from 'node:stream';

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

/**
 * Label → value tables of product records, whose labels vary by page and language: flattened, a
 * details export would have a column per label ever seen (and hit the column cap); kept whole, one
 * JSON cell each (docs/data.md, CSV).
 */
const WHOLE_OBJECTS: ReadonlySet<string> = new Set(['specifications', 'details']);

/** `{price: {amount: 1, currency: 'EUR'}}` → `{'price.amount': 1, 'price.currency': 'EUR'}`; arrays and label tables stay whole. */
export function flattenItem(item: Record<string, unknown>, prefix = '', depth = 0, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const key of Object.keys(item)) {
    const value = item[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (depth < MAX_FLATTEN_DEPTH && isNonEmptyObject(value) && !(depth === 0 && WHOLE_OBJECTS.has(key))) flattenItem(value, path, depth + 1, out);
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
 * One CSV line (with its `\n`), byte for byte what fast-csv's `format()` writes with its default
 * options: NULs dropped; a field with a `"` quoted with the quote doubled; one with a `,`, `|`, CR
 * or LF quoted. (fast-csv's test for the latter is the character class `[,\n|\r|\n]`, which
 * also matches `|`; quoting such a field is harmless and keeps the outputs identical, which
 * export-stream.test.ts checks against fast-csv itself.)
 */
export function csvLine(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i += 1) {
    let field = fields[i] as string;
    if (field.includes('\0')) field = field.replaceAll('\0', '');
    if (i > 0) line += ',';
    if (field.includes('"')) line += `"${field.replaceAll('"', '""')}"`;
    else if (NEEDS_QUOTES.test(field)) line += `"${field}"`;
    else line += field;
  }
  return `${line}\n`;
}

const NEEDS_QUOTES = /[,|\r\n]/;

/** Output is handed on in chunks of about this many characters, not one write per row. */
const OUTPUT_CHUNK_CHARS = 64 * 1024;

/**
 * CSV of the stored items. `columns` are the item keys in first-seen order (`unionColumns` of
 * the per-target records kept at write time): the rows are read once. Without them a first pass
 * collects the names (memory grows with the number of columns, not rows). Items come a batch at
 * a time and leave as ~64 KB chunks of lines; the next batch is read only when the consumer
 * wants more, and when it goes away the reading stops and the store's cursor is closed.
 *
 * The lines are formatted here (`csvLine`) rather than through fast-csv's stream: it pushes
 * each row through a Transform on its own, which cost more than reading and parsing the rows
 * (ADR 0012); the output is the same.
 */
export function csvExport(items: () => AsyncIterable<readonly Record<string, unknown>[]>, columns?: readonly string[]): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let seen: Set<string>;
    if (columns) seen = new Set(columns.slice(0, MAX_SEEN_COLUMNS));
    else {
      seen = new Set<string>();
      for await (const batch of items()) for (const item of batch) addColumns(seen, Object.keys(flattenItem(item)));
    }
    const ordered = orderColumns(seen);
    let buffer = csvLine(ordered.map(protectCell));
    if (ordered.length > 0) {
      const row = new Array<string>(ordered.length);
      for await (const batch of items()) {
        for (const item of batch) {
          const flat = flattenItem(item);
          for (let i = 0; i < ordered.length; i += 1) row[i] = csvCell(flat[ordered[i] as string]);
          buffer += csvLine(row);
        }
        if (buffer.length >= OUTPUT_CHUNK_CHARS) {
          yield buffer;
          buffer = '';
        }
      }
    }
    yield buffer;
  }
  return Readable.from(chunks(), { objectMode: false });
}

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
      if (buffer.length >= OUTPUT_CHUNK_CHARS) {
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
