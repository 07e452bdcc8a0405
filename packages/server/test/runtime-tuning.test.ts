import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..', '..');
const startScript = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start as string;
const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');

/** `A=1 B=2 node --x --y script` → the assignments and the node flags. */
function tuning(script: string): { env: string[]; flags: string[] } {
  const words = script.trim().split(/\s+/);
  const node = words.indexOf('node');
  const env = words.slice(0, node);
  const flags = words.slice(node + 1).filter((word) => word.startsWith('--') && !word.startsWith('--experimental') && !word.startsWith('--disable-warning'));
  return { env, flags };
}

// The memory tuning is measured by the storage bench through `pnpm start`; the image must run
// the service the same way, or production RSS is not what docs/benchmarks.md says.
describe('runtime tuning', () => {
  const { env, flags } = tuning(startScript);

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
