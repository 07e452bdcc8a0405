/**
 * Prints the configuration table from the config schemas; `--write` puts it into README.md.
 * `pnpm config:table [--write]`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { configTableMarkdown, withConfigTable } from '@crawl/server';

const table = await configTableMarkdown();
if (process.argv.includes('--write')) {
  writeFileSync('README.md', withConfigTable(readFileSync('README.md', 'utf8'), table));
  console.log('README.md configuration table updated');
} else {
  console.log(table);
}
