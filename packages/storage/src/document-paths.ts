import type { DocumentFields, Filter, Operators, Update } from './document-store.ts';

export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const segment of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (typeof current === 'object') current = (current as DocumentFields)[segment];
    else return undefined;
  }
  return current;
}

export function setPath(doc: DocumentFields, path: string, value: unknown): void {
  const segments = path.split('.');
  let current: DocumentFields | unknown[] = doc;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const key: string | number = Array.isArray(current) && /^\d+$/.test(segment) ? Number(segment) : segment;
    const container = current as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    if (container[key] === null || typeof container[key] !== 'object') container[key] = /^\d+$/.test(segments[index + 1] ?? '') ? [] : {};
    current = container[key] as DocumentFields;
  });
}

export function unsetPath(doc: DocumentFields, path: string): void {
  const segments = path.split('.');
  const parent = segments.length === 1 ? doc : getPath(doc, segments.slice(0, -1).join('.'));
  if (parent && typeof parent === 'object') delete (parent as DocumentFields)[segments[segments.length - 1] ?? ''];
}

function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (typeof value === 'boolean') return 4;
  return 3;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return JSON.stringify(a ?? null).localeCompare(JSON.stringify(b ?? null));
}

/** `{ $gt: 1 }` is operators; `{ a: 1 }`, `{}` and arrays are values compared for equality. */
export function isOperatorObject(value: unknown): value is Operators {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith('$'))
  );
}

/** The plain equality parts of a filter, which an upsert copies into the new document. */
export function equalityFields(filter: Filter): DocumentFields {
  const fields: DocumentFields = {};
  for (const [path, value] of Object.entries(filter)) {
    if (path === '$or') continue;
    if (isOperatorObject(value)) {
      if ('$eq' in value) fields[path] = value.$eq;
    } else fields[path] = value;
  }
  return fields;
}

export function applyUpdate(doc: DocumentFields, update: Update, inserting: boolean): void {
  for (const [path, value] of Object.entries(update.$set ?? {})) setPath(doc, path, structuredClone(value));
  if (inserting) for (const [path, value] of Object.entries(update.$setOnInsert ?? {})) setPath(doc, path, structuredClone(value));
  for (const path of Object.keys(update.$unset ?? {})) unsetPath(doc, path);
  for (const [path, by] of Object.entries(update.$inc ?? {})) {
    const current = getPath(doc, path);
    setPath(doc, path, (typeof current === 'number' ? current : 0) + by);
  }
  for (const [path, value] of Object.entries(update.$max ?? {})) {
    const current = getPath(doc, path);
    if (current === undefined || compareValues(value, current) > 0) setPath(doc, path, value);
  }
  for (const [path, value] of Object.entries(update.$min ?? {})) {
    const current = getPath(doc, path);
    if (current === undefined || compareValues(value, current) < 0) setPath(doc, path, value);
  }
  for (const [path, value] of Object.entries(update.$push ?? {})) {
    const current = getPath(doc, path);
    setPath(doc, path, [...(Array.isArray(current) ? current : []), structuredClone(value)]);
  }
}
