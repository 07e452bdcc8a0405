import { freePort } from '@crawl/redis/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export { freePort };

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface SpawnedService {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface SpawnServiceOptions {
  args?: string[];
  env?: Record<string, string>;
  dataDir?: string;
  /** Listen on this port (e.g. one handed to other processes beforehand); default: a free one. */
  port?: number;
  /** The endpoint that must answer 2xx before the service counts as started (default `/health`; `/ready` once modules started). */
  waitFor?: '/health' | '/ready';
  /** How long to wait for it (default 30 s). */
  startTimeoutMs?: number;
}

/** Starts `bin.ts` as its own process, the way `pnpm start` does, and waits for /health (or `waitFor`). */
export async function spawnService(options: SpawnServiceOptions = {}): Promise<SpawnedService> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'crawl-e2e-'));
  let output = '';
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', 'apps/server/src/bin.ts', ...(options.args ?? [])],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}${options.waitFor ?? '/health'}`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
