import { describeConfig } from '@crawl/config';
import { RuntimeConfig } from '@crawl/runtime';
import { MODULE_LOADERS } from './all-modules.ts';

export const TABLE_START = '<!-- config-table:start -->';
export const TABLE_END = '<!-- config-table:end -->';

/** The README's configuration table, from the config schemas; a variable read by several services is one row. */
export async function configTableMarkdown(): Promise<string> {
  const rows = new Map<string, { default: string; description: string; readers: string[] }>();
  const add = (reader: string, entries: ReturnType<typeof describeConfig>) => {
    for (const entry of entries) {
      const row = rows.get(entry.name);
      if (row) row.readers.push(reader);
      else rows.set(entry.name, { default: entry.default, description: entry.description, readers: [reader] });
    }
  };
  add('every process', describeConfig(RuntimeConfig));
  for (const [service, load] of Object.entries(MODULE_LOADERS)) {
    const module = await load();
    if (module.configSchema) add(service, describeConfig(module.configSchema));
  }
  const lines = ['| Variable | Default | Read by | Meaning |', '| --- | --- | --- | --- |'];
  for (const [name, row] of rows) {
    lines.push(`| \`${name}\` | ${row.default === '' ? '' : `\`${row.default}\``} | ${row.readers.join(', ')} | ${row.description.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n');
}

/** The README with its table between the markers replaced. */
export function withConfigTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('README has no config-table markers');
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
