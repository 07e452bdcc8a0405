/**
 * Prints the configuration table from the config schemas; `--write` puts it into README.md.
 * `pnpm config:table [--write]`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { configTableMarkdown, withConfigTable } from './config-table.ts';

const README = resolve(import.meta.dirname, '../../../README.md');
const table = await configTableMarkdown();
if (process.argv.includes('--write')) {
  writeFileSync(README, withConfigTable(readFileSync(README, 'utf8'), table));
  console.log('README.md configuration table updated');
} else {
  console.log(table);
}
