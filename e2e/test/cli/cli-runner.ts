import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '@crawl/cli';
import { REPO_ROOT } from '../spawn-service.ts';

/** The `crawl` bin of @crawl/cli (its package.json `bin`), run the way `pnpm crawl` runs it. */
export const BIN = join(REPO_ROOT, 'apps/cli/src/bin.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A config home of its own, so no test reads or writes the real ~/.config/crawl. */
export function isolatedHome(): string {
  return mkdtempSync(join(tmpdir(), 'crawl-cli-'));
}

export function homeEnv(home: string): { HOME: string; XDG_CONFIG_HOME: string } {
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
}

/** The CLI in this process, its output captured; `tty` makes stdout and stderr look like a terminal. */
export async function runInProcess(argv: string[], options: { home: string; tty?: boolean; env?: Record<string, string>; cwd?: string }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stream = (append: (text: string) => void) =>
    Object.assign(
      new Writable({
        write(chunk, _encoding, callback) {
          append(String(chunk));
          callback();
        },
      }),
      { isTTY: options.tty === true, columns: 120 },
    );
  const code = await main(argv, {
    stdout: stream((t) => (stdout += t)),
    stderr: stream((t) => (stderr += t)),
    stdin: Readable.from([]),
    env: { ...homeEnv(options.home), ...options.env },
    cwd: options.cwd ?? options.home,
  });
  return { code, stdout, stderr };
}

/** The CLI as its own process, the way a user runs it (`crawl …` is this bin). */
export function runChild(argv: string[], options: { home: string; cwd?: string }): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    execFile(
      process.execPath,
      ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', BIN, ...argv],
      { cwd: options.cwd ?? options.home, env: { PATH: process.env.PATH ?? '', ...homeEnv(options.home) }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout, stderr });
      },
    );
  });
}
