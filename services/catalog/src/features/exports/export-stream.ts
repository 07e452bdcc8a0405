import { Readable } from 'node:stream';
import type { ResultRecord } from '@crawl/contracts';
import { addColumns, flattenItem, MAX_CSV_COLUMNS, MAX_SEEN_COLUMNS } from '../results/index.ts';

/** Most useful columns first when they are present; the rest follow in first-seen order. */
const PREFERRED_COLUMNS = ['asin', 'title', 'price.amount', 'price.currency', 'price.raw', 'rank', 'sponsored', 'rating', 'reviewCount', 'url'];

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

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return protectCell(value);
  return protectCell(JSON.stringify(value));
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
export function csvExport(items: () => AsyncIterable<readonly ResultRecord[]>, columns?: readonly string[]): Readable {
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
export function jsonExport(items: () => AsyncIterable<readonly ResultRecord[]>): Readable {
  return jsonTextExport(async function* () {
    for await (const batch of items()) yield batch.map((item) => JSON.stringify(item));
  });
}
