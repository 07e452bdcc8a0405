import type { IndexSpec } from '@crawl/storage';
import { fieldExpression } from './sqlite-filter.ts';

/**
 * Declared indexes as SQLite expression indexes: one `json_extract(doc, '$.field')` column per
 * field, in order and direction, `_id` as the id column. The expressions come from the same
 * function the filters use, which is what lets the planner pick them.
 */
export interface SqliteIndex {
  /** The name the caller declared (what DuplicateKeyError reports). */
  declared: string;
  /** The SQLite index name: unique per database file, so it carries the table name. */
  name: string;
  /** CREATE statement as sqlite_schema stores it (SQLite drops `IF NOT EXISTS` from the text). */
  definition: string;
}

const sanitize = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_');

/** `c_jobs` and `org_created` → `ix_c_jobs__org_created`. */
export function sqliteIndexName(tableName: string, declared: string): string {
  return `ix_${tableName}__${sanitize(declared)}`;
}

export function sqliteIndex(tableName: string, spec: IndexSpec): SqliteIndex {
  const fields = Object.keys(spec.keys);
  if (fields.length === 0) throw new Error('An index needs at least one field');
  const declared = spec.name ?? fields.join('_');
  const name = sqliteIndexName(tableName, declared);
  const columns = fields.map((field) => `${fieldExpression(field)}${spec.keys[field] === -1 ? ' DESC' : ''}`).join(', ');
  return { declared, name, definition: `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX "${name}" ON "${tableName}" (${columns})` };
}

/** The statement that creates the index unless one of that name exists. */
export const createIfMissing = (index: SqliteIndex): string => index.definition.replace(' INDEX ', ' INDEX IF NOT EXISTS ');
