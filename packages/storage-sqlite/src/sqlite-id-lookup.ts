import type { DocumentFields, Filter } from '@crawl/storage';

type Plain = string | number | boolean | null;

/**
 * A filter the read cache can answer: `_id` equal to a string, and any other condition a field
 * equal to a plain value (string, number, boolean or null) on a path without array indexes. The
 * cache holds the document by id; these conditions are checked on it here, with the semantics
 * sqlite-filter.ts gives them in SQL (no type mixing; null matches a missing field too; an array
 * does not match one of its elements). Anything else (operators, `$or`, objects, array paths)
 * returns undefined and is read from SQLite.
 */
export function idLookup(filter: Filter): string | undefined {
  const id = filter._id;
  if (typeof id !== 'string') return undefined;
  for (const path in filter) {
    if (path === '_id') continue;
    if (path.startsWith('$') || !isPlain(filter[path]) || hasArrayIndex(path)) return undefined;
  }
  return id;
}

/** Whether `doc` meets the conditions besides `_id` of a filter `idLookup` accepted. */
export function meetsPlainConditions(doc: DocumentFields, filter: Filter): boolean {
  for (const path in filter) {
    if (path === '_id') continue;
    const wanted = filter[path] as Plain;
    const actual = valueAt(doc, path);
    if (wanted === null ? actual !== null && actual !== undefined : actual !== wanted) return false;
  }
  return true;
}

function isPlain(value: unknown): value is Plain {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function hasArrayIndex(path: string): boolean {
  return path.includes('.') && path.split('.').some((segment) => /^\d+$/.test(segment));
}

/**
 * The value at a path as SQL's `doc ->> '$.path'` sees it. Not `getPath` from @crawl/storage: that
 * one indexes arrays and reads inherited properties (`constructor`), which SQL does not.
 */
function valueAt(doc: DocumentFields, path: string): unknown {
  if (!path.includes('.')) return Object.hasOwn(doc, path) ? doc[path] : undefined;
  let current: unknown = doc;
  for (const segment of path.split('.')) {
    // An array on the way has no named fields (SQL's `$.a.b` on an array is NULL too).
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, segment) ? Reflect.get(current, segment) : undefined;
  }
  return current;
}
