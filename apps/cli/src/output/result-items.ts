import type { ResultItem } from '@crawl/sdk';
import { kindColumns } from './kind-columns.ts';

/**
 * A result flattened for CSV: dotted column name (`price.amount`) → the value there. Opaque by
 * design: results are open records, and what a nested field holds is whatever JSON the service
 * stored; it is only ever turned into a cell.
 */
export type FlatRow = Record<string, unknown>;

/** Flattens a result (or, inside it, a nested object) to dotted keys (`price.amount`); arrays become JSON text. */
export function flatten(item: object, prefix = '', into: FlatRow = {}): FlatRow {
  const fields: [string, unknown][] = Object.entries(item);
  for (const [key, value] of fields) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value, name, into);
    else into[name] = Array.isArray(value) ? JSON.stringify(value) : value;
  }
  return into;
}

/** Every flattened key of the items, in first-seen order. */
export function columnsOf(rows: readonly FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** The columns shown by `--format table`: those of the records' kind present (kind-columns.ts), else the first few. */
export function tableColumns(items: ResultItem[]): string[] {
  const known = kindColumns(items);
  return known.length > 0 ? known : [...new Set(items.flatMap((item) => Object.keys(item)))].slice(0, 6);
}

/** A cell as text: prices as `amount currency`, long titles cut. */
export function cellText(value: unknown, width = 60): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const price = value as { amount?: unknown; currency?: unknown };
    if (typeof price.amount === 'number') return `${price.amount}${typeof price.currency === 'string' ? ` ${price.currency}` : ''}`;
    return JSON.stringify(value);
  }
  const text = String(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** RFC 4180 quoting: a cell with a comma, quote or line break is quoted, quotes doubled. */
export function csvLine(cells: unknown[]): string {
  return cells
    .map((cell) => {
      const text = cell === null || cell === undefined ? '' : String(cell);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}
