// The all-in-one service (`apps/server/src/bin.ts --target=all`) as a child process on
// 127.0.0.1, a random free port and a fresh temporary DATA_DIR, so its RSS can be read from /proc;
// and `startChild`, which the bare export server (bare.ts) starts with too.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@crawl/redis/testing';
import { startCommand } from '@crawl/server/start-command';

export { freePort };

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** The all-in-one process; `stop()` also removes the data directory; `output()` holds its warnings and errors (it logs at `warn`). */
export interface ServiceProcess extends ChildServer {
  dataDir: string;
  /** INTERNAL_SECRET of the process: the bench signs service tokens with it for the worker routes. */
  internalSecret: string;
}

function statusField(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

const cleanups = new Set<() => Promise<unknown>>();
let handlersInstalled = false;

/**
 * Registers a clean-up to run if the bench is interrupted (SIGINT, SIGTERM): stop the service or
 * the bare export server, drop the databases. @returns a function that unregisters it.
 */
export function onInterrupt(cleanup: () => Promise<unknown>): () => void {
  cleanups.add(cleanup);
  if (!handlersInstalled) {
    handlersInstalled = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: stopping the child processes and cleaning up`);
        setTimeout(() => process.exit(130), 30_000).unref();
        void Promise.allSettled([...cleanups].map((c) => c())).then(() => process.exit(130));
      });
    }
  }
  return () => cleanups.delete(cleanup);
}

const KEEP_OUTPUT_CHARS = 20_000;
const STOP_GRACE_MS = 20_000;

/** A Node child process serving HTTP on 127.0.0.1. */
export interface ChildServer {
  url: string;
  port: number;
  pid: number;
  /** VmRSS and VmHWM (peak) of the process, in MB (/proc/<pid>/status). */
  memory(): { rssMb: number; peakRssMb: number };
  /** Last lines the process printed. */
  output(): string;
  /** SIGTERM, then SIGKILL after the grace period, then `afterStop`. @returns the exit code. */
  stop(): Promise<number | null>;
}

/** PATH/HOME/locale from our environment, nothing else: a child starts from a clean environment. */
function baseEnv(): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TZ']) if (process.env[key] !== undefined) base[key] = process.env[key] as string;
  return base;
}

/**
 * Starts `node <nodeFlags> <args>` in `cwd` with a clean environment plus `env`
 * (which must make it listen on 127.0.0.1:`port`), and waits until `GET readyPath` answers 2xx.
 * The child is killed if the bench exits, and stopped (`stop()`) on SIGINT/SIGTERM (`onInterrupt`).
 * `afterStop` runs once the child has exited, also when it fails to start.
 */
export async function startChild(options: {
  name: string;
  args: string[];
  /** Node flags; default: type stripping only. */
  nodeFlags?: string[];
  cwd: string;
  env: Record<string, string>;
  port: number;
  readyPath: string;
  startTimeoutMs: number;
  afterStop?: () => void;
  /**
   * Where the child's stdout and stderr go; default a pipe into this process. A file keeps a child
   * that logs every request from taxing the load generator, which runs in this process.
   */
  logFile?: string;
}): Promise<ChildServer> {
  const { name, port, startTimeoutMs, afterStop = () => {} } = options;
  let piped = '';
  const flags = options.nodeFlags ?? ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
  const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...flags, ...options.args], {
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) closeSync(logFd);
  const keep = (chunk: Buffer) => {
    piped += String(chunk);
    if (piped.length > KEEP_OUTPUT_CHARS * 2) piped = piped.slice(-KEEP_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const logTail = (file: string) => {
    try {
      return readFileSync(file, 'utf8').slice(-KEEP_OUTPUT_CHARS);
    } catch {
      return '';
    }
  };
  const tail = () => (options.logFile === undefined ? piped : logTail(options.logFile));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  // If the bench dies, the child must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      process.removeListener('exit', killOnExit);
      afterStop();
      throw new Error(`${name} exited early (${child.exitCode}):\n${tail().slice(-4000)}`);
    }
    try {
      const res = await fetch(url + options.readyPath);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      process.removeListener('exit', killOnExit);
      afterStop();
      throw new Error(`${name} did not become ready within ${startTimeoutMs} ms:\n${tail().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid as number;
  let stopping: Promise<number | null> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      const code = await exited;
      clearTimeout(timer);
      process.removeListener('exit', killOnExit);
      unregister();
      afterStop();
      return code;
    })());
  const unregister = onInterrupt(stop);
  return {
    url,
    port,
    pid,
    memory: () => ({ rssMb: statusField(pid, 'VmRSS'), peakRssMb: statusField(pid, 'VmHWM') }),
    output: () => tail().slice(-KEEP_OUTPUT_CHARS),
    stop,
  };
}

/**
 * Starts the service with a clean environment: only PATH/HOME/locale from ours, then `env`. So a
 * MONGO_URL or REDIS_URL in the caller's shell never leaks into the embedded variant.
 */
export async function startService(env: Record<string, string>, startTimeoutMs: number, root = REPO_ROOT): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-bench-storage-'));
  const internalSecret = randomBytes(48).toString('base64url');
  const start = startCommand(root);
  const child = await startChild({
    name: 'the service',
    // BENCH_NODE_FLAGS: extra Node/V8 flags after pnpm start's (to try a setting without editing it).
    nodeFlags: [...start.nodeFlags, ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)],
    args: [...start.args, '--target=all'],
    cwd: root,
    env: {
      ...start.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      INTERNAL_SECRET: internalSecret,
      ...env,
    },
    port,
    readyPath: '/ready',
    startTimeoutMs,
    afterStop: () => rmSync(dataDir, { recursive: true, force: true }),
  });
  return { ...child, dataDir, internalSecret };
}
