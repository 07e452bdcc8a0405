import type { SqliteConnection } from './sqlite-connection.ts';
import { jsonPath } from './sqlite-filter.ts';

/**
 * Streamed fields (`CollectionOptions.streamedFields`) as STORED generated columns: SQLite writes
 * the field's JSON text (`doc -> '$.field'`) into its own column whenever the document is
 * written, so a bulk read of it (an export) copies text instead of parsing every document. On
 * 100k result rows that read takes about half the time of extracting the field at read time.
 */
export function streamedColumn(field: string): string {
  if (field.includes('.') || field.startsWith('$')) throw new Error(`A streamed field is a top-level field, not ${JSON.stringify(field)}`);
  return `f_${field.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function columnDefinition(field: string): string {
  return `"${streamedColumn(field)}" TEXT GENERATED ALWAYS AS (doc -> '${jsonPath(field).replaceAll("'", "''")}') STORED`;
}

export function tableDefinition(table: string, fields: readonly string[]): string {
  return `CREATE TABLE IF NOT EXISTS "${table}" (${['id TEXT PRIMARY KEY', 'doc TEXT NOT NULL', ...fields.map(columnDefinition)].join(', ')})`;
}

/**
 * Gives an existing table the generated columns it lacks. SQLite cannot add a STORED column to a
 * table, so the table is rebuilt once (copy, drop, rename, indexes recreated from their stored
 * SQL) in one transaction: a data directory from before the column existed gets it on the
 * first start, and a crash half-way leaves the old table as it was. The rebuilt table has exactly
 * the declared columns.
 */
export function addStreamedColumns(db: SqliteConnection, table: string, fields: readonly string[]): void {
  const existing = new Set(
    db
      .statement(`SELECT name FROM pragma_table_xinfo('${table}')`)
      .all()
      .map((row) => String(row.name)),
  );
  const missing = fields.filter((field) => !existing.has(streamedColumn(field)));
  if (missing.length === 0) return;
  db.write(() => {
    const indexes = db
      .statement("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .all(table)
      .map((row) => String(row.sql));
    const rebuilt = `${table}__rebuild`;
    db.exec(`DROP TABLE IF EXISTS "${rebuilt}"`);
    db.exec(tableDefinition(rebuilt, fields));
    db.exec(`INSERT INTO "${rebuilt}" (id, doc) SELECT id, doc FROM "${table}" ORDER BY rowid`);
    db.exec(`DROP TABLE "${table}"`);
    db.exec(`ALTER TABLE "${rebuilt}" RENAME TO "${table}"`);
    for (const sql of indexes) db.exec(sql);
  }, true);
}
