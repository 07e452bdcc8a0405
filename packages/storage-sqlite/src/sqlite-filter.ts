import { isOperatorObject } from '@crawl/storage/paths';
import type { Filter, Operators, SortSpec } from '@crawl/storage';

/**
 * Translates the port's filters and sorts into SQL over a `(id TEXT PRIMARY KEY, doc TEXT)` table,
 * with the semantics the in-memory matcher had (MongoDB's, minus array-contains, see below).
 *
 * A field is read with `json_extract(doc, '$.path')`, spelled exactly as the expression indexes
 * are (see sqlite-indexes.ts), so SQLite's planner can match the two. The first condition on a
 * field is always that plain comparison, which the index serves; type checks come after it as
 * residual conditions, and only where SQLite's value model could otherwise mix types:
 * - `json_extract` gives SQL NULL for both a missing field and JSON null (both match `{f: null}`),
 *   the integers 1/0 for true/false (so booleans check `json_type`, and numbers 0/1 do too), and
 *   TEXT for strings as well as for objects and arrays (their JSON text, which starts with `{`/`[`).
 * - SQLite orders NULL < numbers < TEXT, so a range on one type is fenced with a bound the index
 *   also serves (`< ''` keeps numbers only, `>= ''` keeps TEXT only) instead of a per-row check.
 *
 * Not emulated: MongoDB's "an array field matches when one of its elements equals the value". No
 * caller filters an array field by element (array fields are only reached through index paths such
 * as `targets.3.status`), so `{tags: 'x'}` does not match `{tags: ['x']}` here.
 * Numeric path segments always index arrays (`targets.3` is `$.targets[3]`), never object keys.
 */

export type SqlParam = string | number | null;
/** Values of named placeholders (`:f0` …): the JSON paths of fields no index uses. */
export type NamedParams = Record<string, string>;

export interface SqlCondition {
  /** A WHERE expression; '1' when the filter is empty. */
  sql: string;
  /** The named values first (node:sqlite takes them as the first argument), then `?` values in order. */
  params: [NamedParams, ...SqlParam[]];
}

/** What one filter's translation collects. */
interface Translation {
  params: SqlParam[];
  named: NamedParams;
  /** Placeholder name per path, so a path read twice is bound once. */
  names: Map<string, string>;
  /** Paths spelled out literally (the indexed ones); undefined: every path. */
  literal: ReadonlySet<string> | undefined;
}

/** How SQL reads one field: its indexable value and its JSON type (undefined for the id column). */
interface FieldSql {
  value: string;
  type: string | undefined;
}

const ID_FIELD: FieldSql = { value: 'id', type: undefined };
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ARRAY_INDEX = /^\d+$/;
/** Lists up to this size become `IN (?, …)`, which the planner serves from an index. */
const MAX_IN_PLACEHOLDERS = 1024;

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `targets.3.status` → `$.targets[3].status`; keys that are not identifiers are quoted. */
export function jsonPath(path: string): string {
  let out = '$';
  for (const segment of path.split('.')) {
    if (ARRAY_INDEX.test(segment)) out += `[${Number(segment)}]`;
    else if (IDENTIFIER.test(segment)) out += `.${segment}`;
    else if (segment === '' || segment.includes('"')) throw new Error(`Unsupported field path ${JSON.stringify(path)}`);
    else out += `."${segment}"`;
  }
  return out;
}

// Literal paths are the indexed ones, few and from code; bounded anyway.
const fieldCache = new Map<string, FieldSql>();

function field(path: string): FieldSql {
  if (path === '_id') return ID_FIELD;
  let found = fieldCache.get(path);
  if (!found) {
    const literal = sqlText(jsonPath(path));
    found = { value: `json_extract(doc, ${literal})`, type: `json_type(doc, ${literal})` };
    if (fieldCache.size >= 2000) fieldCache.clear();
    fieldCache.set(path, found);
  }
  return found;
}

/** The expression an index or an ORDER BY uses for a field path. */
export function fieldExpression(path: string): string {
  return field(path).value;
}

/**
 * `literal`: the paths to spell out in the SQL text, as the expression indexes do (pass the
 * collection's indexed paths). Any other path is a bound parameter, `json_extract(doc, :f0)`: some
 * paths embed ids (`inflight.<jobKey>.op`), and as text each would make a new statement to prepare
 * and cache, a parse per call and native memory held until the statement is collected.
 */
export function filterToSql(filter: Filter, literal?: ReadonlySet<string>): SqlCondition {
  const translation: Translation = { params: [], named: {}, names: new Map(), literal };
  const sql = conjunction(filter, translation);
  // A condition that needs no read of its field (`{$in: []}` is '0') leaves its name unused, and
  // SQLite refuses a value for a placeholder the statement does not have.
  for (const name of translation.names.values()) if (!sql.includes(`:${name})`)) delete translation.named[name];
  return { sql, params: [translation.named, ...translation.params] };
}

function fieldOf(path: string, translation: Translation): FieldSql {
  if (path === '_id' || !translation.literal || translation.literal.has(path)) return field(path);
  let name = translation.names.get(path);
  if (!name) {
    name = `f${translation.names.size}`;
    translation.names.set(path, name);
    translation.named[name] = jsonPath(path);
  }
  return { value: `json_extract(doc, :${name})`, type: `json_type(doc, :${name})` };
}

/** ` ORDER BY …`, or '' when there is no sort. */
export function orderBySql(sort: SortSpec | undefined): string {
  if (!sort) return '';
  let sql = '';
  for (const path in sort) sql += `${sql ? ', ' : ' ORDER BY '}${field(path).value}${sort[path] === -1 ? ' DESC' : ''}`;
  return sql;
}

function conjunction(filter: Filter, translation: Translation): string {
  const parts: string[] = [];
  for (const key of Object.keys(filter)) {
    const expected = filter[key];
    if (key === '$or') parts.push(disjunction(expected, translation));
    else if (key.startsWith('$')) throw new Error(`Unsupported query operator ${key}`);
    else if (isOperatorObject(expected)) parts.push(operators(fieldOf(key, translation), expected, translation.params));
    else parts.push(equality(fieldOf(key, translation), expected, translation.params));
  }
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

function disjunction(branches: unknown, translation: Translation): string {
  if (!Array.isArray(branches)) throw new Error('$or takes an array of filters');
  if (branches.length === 0) return '0';
  return `(${branches.map((branch: Filter) => `(${conjunction(branch, translation)})`).join(' OR ')})`;
}

function operators(f: FieldSql, ops: Operators, params: SqlParam[]): string {
  const parts: string[] = [];
  let bounds: Array<[RangeOperator, unknown]> | undefined;
  for (const [op, operand] of Object.entries(ops)) {
    switch (op) {
      case '$eq':
        parts.push(equality(f, operand, params));
        break;
      case '$ne':
        // IS NOT TRUE (not NOT): a missing field makes the comparison NULL, and $ne matches it.
        parts.push(`(${equality(f, operand, params)}) IS NOT TRUE`);
        break;
      case '$in':
        parts.push(membership(f, list(op, operand), params));
        break;
      case '$nin':
        parts.push(`(${membership(f, list(op, operand), params)}) IS NOT TRUE`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        (bounds ??= []).push([op, operand]);
        break;
      case '$exists':
        // json_type is NULL only for a missing path ('null' for a JSON null, which exists).
        if (!f.type) parts.push(operand ? '1' : '0');
        else parts.push(`${f.type} ${operand ? 'IS NOT NULL' : 'IS NULL'}`);
        break;
      default:
        throw new Error(`Unsupported query operator ${op}`);
    }
  }
  if (bounds) parts.push(range(f, bounds, params));
  return parts.join(' AND ');
}

function list(op: string, operand: unknown): readonly unknown[] {
  if (!Array.isArray(operand)) throw new Error(`${op} takes an array`);
  return operand;
}

/** Equal value and type; JSON null and a missing field are equal to null (and to undefined). */
function equality(f: FieldSql, value: unknown, params: SqlParam[]): string {
  if (value === null || value === undefined) return f.type ? `${f.value} IS NULL` : '0';
  switch (typeof value) {
    case 'string':
      params.push(value);
      return f.type && looksLikeJsonText(value) ? `(${f.value} = ? AND ${f.type} = 'text')` : `${f.value} = ?`;
    case 'number':
      if (!f.type) return '0';
      params.push(value);
      return value === 0 || value === 1 ? `(${f.value} = ? AND ${f.type} IN ('integer', 'real'))` : `${f.value} = ?`;
    case 'boolean':
      if (!f.type) return '0';
      return value ? `(${f.value} = 1 AND ${f.type} = 'true')` : `(${f.value} = 0 AND ${f.type} = 'false')`;
    case 'object':
      // Objects and arrays compare as JSON text, key order included (as the matcher did).
      if (!f.type) return '0';
      params.push(JSON.stringify(value));
      return `(${f.value} = ? AND ${f.type} = '${Array.isArray(value) ? 'array' : 'object'}')`;
    default:
      throw new Error(`Unsupported filter value of type ${typeof value}`);
  }
}

/** Only a string starting like an object or array can equal the JSON text json_extract gives those. */
const looksLikeJsonText = (text: string): boolean => text.startsWith('{') || text.startsWith('[');

/**
 * `$in`: strings and numbers each become one `IN (?, …)` the index serves; other values become
 * equalities. Lists are padded (with their last value) to a power of two so that the number of
 * distinct statements, and so the statement cache, stays small.
 */
function membership(f: FieldSql, values: readonly unknown[], params: SqlParam[]): string {
  const strings: string[] = [];
  const numbers: number[] = [];
  const others: unknown[] = [];
  for (const value of values) {
    if (typeof value === 'string') strings.push(value);
    else if (typeof value === 'number') numbers.push(value);
    else others.push(value);
  }
  const parts: string[] = [];
  if (strings.length > 0) {
    const guard = f.type && strings.some(looksLikeJsonText) ? ` AND ${f.type} = 'text'` : '';
    parts.push(guard ? `(${inList(f.value, strings, params)}${guard})` : inList(f.value, strings, params));
  }
  if (numbers.length > 0 && f.type) {
    const guard = numbers.some((n) => n === 0 || n === 1) ? ` AND ${f.type} IN ('integer', 'real')` : '';
    parts.push(guard ? `(${inList(f.value, numbers, params)}${guard})` : inList(f.value, numbers, params));
  }
  for (const value of others) parts.push(equality(f, value, params));
  if (parts.length === 0) return '0';
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' OR ')})`;
}

function inList(expression: string, values: readonly SqlParam[], params: SqlParam[]): string {
  if (values.length === 1) {
    params.push(values[0] as SqlParam);
    return `${expression} = ?`;
  }
  if (values.length > MAX_IN_PLACEHOLDERS) {
    // Beyond this SQLite scans instead of using the index, but stays within its parameter limit.
    params.push(JSON.stringify(values));
    return `${expression} IN (SELECT value FROM json_each(?))`;
  }
  let size = 2;
  while (size < values.length) size *= 2;
  for (let i = 0; i < size; i += 1) params.push(values[Math.min(i, values.length - 1)] as SqlParam);
  return `${expression} IN (?${', ?'.repeat(size - 1)})`;
}

type RangeOperator = '$gt' | '$gte' | '$lt' | '$lte';
const SQL_OPERATOR: Record<RangeOperator, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
const isLower = (op: RangeOperator): boolean => op === '$gt' || op === '$gte';

/** `$gt`…`$lte` on one field: only values of the operands' type match; null operands match nothing. */
function range(f: FieldSql, bounds: ReadonlyArray<[RangeOperator, unknown]>, params: SqlParam[]): string {
  const kind = kindOf(bounds[0]?.[1]);
  if (kind === 'null' || bounds.some(([, operand]) => kindOf(operand) !== kind)) return '0';
  if (!f.type && kind !== 'string') return '0';
  const parts = bounds.map(([op, operand]) => {
    params.push(typeof operand === 'boolean' ? Number(operand) : typeof operand === 'object' ? JSON.stringify(operand) : (operand as string | number));
    return `${f.value} ${SQL_OPERATOR[op]} ?`;
  });
  if (!f.type) return parts.join(' AND ');
  const hasLower = bounds.some(([op]) => isLower(op));
  const hasUpper = bounds.some(([op]) => !isLower(op));
  if (kind === 'number') {
    if (!hasUpper) parts.push(`${f.value} < ''`);
    // true/false read as 1/0: check the type only when 0 or 1 lies within the bounds.
    if ([0, 1].some((bit) => bounds.every(([op, operand]) => admits(bit, op, operand as number)))) parts.push(`${f.type} IN ('integer', 'real')`);
  } else if (kind === 'string') {
    if (!hasLower) parts.push(`${f.value} >= ''`);
    // Object/array JSON text starts with '{' or '[': an upper bound at or below '[' excludes it.
    if (!bounds.some(([op, operand]) => !isLower(op) && (operand as string) <= '[')) parts.push(`${f.type} = 'text'`);
  } else if (kind === 'boolean') {
    parts.push(`${f.type} IN ('true', 'false')`);
  } else {
    parts.push(`${f.type} IN ('object', 'array')`);
  }
  return parts.join(' AND ');
}

function kindOf(value: unknown): 'null' | 'number' | 'string' | 'boolean' | 'object' {
  if (value === null || value === undefined) return 'null';
  const type = typeof value;
  if (type === 'number' || type === 'string' || type === 'boolean') return type;
  if (type === 'object') return 'object';
  throw new Error(`Unsupported filter value of type ${type}`);
}

function admits(x: number, op: RangeOperator, bound: number): boolean {
  if (op === '$gt') return x > bound;
  if (op === '$gte') return x >= bound;
  if (op === '$lt') return x < bound;
  return x <= bound;
}
