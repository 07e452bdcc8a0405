import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCommand } from '@crawl/server/start-command';

const root = resolve(import.meta.dirname, '..', '..');
const start = startCommand(root);
const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');

// The memory tuning is measured by the storage bench through `pnpm start`; the image must run
// the service the same way, or production RSS is not what docs/benchmarks.md says.
describe('runtime tuning', () => {
  // Type stripping and warnings are how the sources run, not tuning.
  const flags = start.nodeFlags.filter((flag) => !flag.startsWith('--experimental') && !flag.startsWith('--disable-warning'));
  const env = Object.entries(start.env).map(([name, value]) => `${name}=${value}`);

  it('pnpm start carries the memory tuning', () => {
    expect(env).toContain('MALLOC_ARENA_MAX=2');
    expect(flags.some((flag) => flag.startsWith('--max-semi-space-size='))).toBe(true);
  });

  it('the image sets the same environment and Node flags as pnpm start', () => {
    const entrypoint = /^ENTRYPOINT \[(.*)\]$/m.exec(dockerfile)?.[1] ?? '';
    for (const assignment of env) expect(dockerfile).toMatch(new RegExp(`^\\s*(ENV\\s+)?${assignment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'm'));
    for (const flag of flags) expect(entrypoint).toContain(`"${flag}"`);
  });
});
