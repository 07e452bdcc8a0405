/**
 * Prints the configuration table (every environment variable, its default and meaning) from the
 * TypeBox config schemas: `node --experimental-strip-types scripts/config-table.ts`.
 */
import { describeConfig } from '@crawl/config';
import { RuntimeConfig } from '@crawl/modules';
import { MODULE_LOADERS } from '@crawl/server';

const rows: Array<{ name: string; default: string; description: string; scope: string }> = describeConfig(RuntimeConfig).map((row) => ({ ...row, scope: 'every process' }));
for (const [service, load] of Object.entries(MODULE_LOADERS)) {
  const module = await load();
  if (module.configSchema) rows.push(...describeConfig(module.configSchema).map((row) => ({ ...row, scope: service })));
}
console.log('| Variable | Default | Read by | Meaning |');
console.log('| --- | --- | --- | --- |');
for (const row of rows) console.log(`| \`${row.name}\` | ${row.default === '' ? '' : `\`${row.default}\``} | ${row.scope} | ${row.description.replace(/\|/g, '\\|')} |`);
