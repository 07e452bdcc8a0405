// What `pnpm start` runs, read from the root package.json: the storage bench starts the service
// with the same Node flags and environment tuning a user gets (e.g. `MALLOC_ARENA_MAX=2 node
// --max-semi-space-size=16 … bin.ts`), not a bare `node bin.ts`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StartCommand {
  /** `NAME=value` assignments in front of `node`. */
  env: Record<string, string>;
  /** Flags between `node` and the script. */
  nodeFlags: string[];
  /** The script and its arguments. */
  args: string[];
}

export function parseStartScript(script: string): StartCommand {
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let index = 0;
  for (; index < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[index] as string); index += 1) {
    const word = words[index] as string;
    const eq = word.indexOf('=');
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  if (words[index] !== 'node') throw new Error(`start script does not run node: ${script}`);
  index += 1;
  const nodeFlags: string[] = [];
  for (; index < words.length && (words[index] as string).startsWith('-'); index += 1) nodeFlags.push(words[index] as string);
  return { env, nodeFlags, args: words.slice(index) };
}

export function startCommand(root: string): StartCommand {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.start;
  if (!script) throw new Error(`${root}/package.json has no start script`);
  return parseStartScript(script);
}
