import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configTableMarkdown, withConfigTable } from './config-table.ts';

describe('README configuration table', () => {
  it('lists every setting of every service as the schemas describe it (run `pnpm config:table --write` after changing one)', async () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    const table = await configTableMarkdown();
    expect(table).toContain('| `JWT_SECRET` |');
    expect(table).toContain('| `MARKETPLACE_EXTRA_HOSTS` |  | catalog, crawler-worker |');
    expect(withConfigTable(readme, table)).toBe(readme);
  });
});
