import type { ResultRecord } from '@crawl/contracts';

/**
 * The CSV columns of result items: each item flattened to dotted keys, and the keys of a target's
 * items in first-seen order, which the result set records when the target is written so an
 * export knows its header before it reads a row.
 */

/** The most columns a CSV export has; the names kept per export before choosing them are bounded by MAX_SEEN_COLUMNS. */
export const MAX_CSV_COLUMNS = 200;
const MAX_FLATTEN_DEPTH = 3;

/**
 * A result flattened to its CSV columns: dotted column name (`price.amount`) → the value there.
 * Opaque by design: a record is open (fields are added over time) and, below the depth flattened,
 * its values are written as JSON whatever they are; the CSV writer only turns each into a cell.
 */
export type FlatItem = Record<string, unknown>;

/** A non-empty plain object (empty ones and arrays are written whole). */
function isNonEmptyObject(value: unknown): value is object {
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

/** A record (or, inside it, a nested object) flattened: `{price: {amount: 1, currency: 'EUR'}}` → `{'price.amount': 1, 'price.currency': 'EUR'}`; arrays and label tables stay whole. */
export function flattenItem(item: object, prefix = '', depth = 0, out: FlatItem = {}): FlatItem {
  const fields: [string, unknown][] = Object.entries(item);
  for (const [key, value] of fields) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (depth < MAX_FLATTEN_DEPTH && isNonEmptyObject(value) && !(depth === 0 && WHOLE_OBJECTS.has(key))) flattenItem(value, path, depth + 1, out);
    else out[path] = value;
  }
  return out;
}

/** Distinct flattened keys kept per export before ordering (memory stays bounded). */
export const MAX_SEEN_COLUMNS = MAX_CSV_COLUMNS * 4;

/** Adds keys in order until `seen` holds MAX_SEEN_COLUMNS names. */
export function addColumns(seen: Set<string>, keys: Iterable<string>): void {
  for (const key of keys) {
    if (seen.size >= MAX_SEEN_COLUMNS) break;
    seen.add(key);
  }
}

/** The flattened keys of `items` in first-seen order (capped): what a target contributes to the header. */
export function columnsOfItems(items: Iterable<ResultRecord>): string[] {
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
