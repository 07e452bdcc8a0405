import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, listening } from '@crawl/redis/testing';

/**
 * A FerretDB process of the fault suite's own, on a free port with its own state folder and no
 * debug listener (so it never competes for another FerretDB's port). Unlike disposable-mongo.ts it
 * can be SIGKILLed and started again on the same data, as a database outage would go.
 */
export interface PrivateFerretDb {
  url: string;
  /** SIGKILL: the server vanishes mid-operation; its data folder stays. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data. */
  start(): Promise<void>;
  /** Kills it and deletes its data. */
  dispose(): Promise<void>;
}

function ferretBinary(): string {
  return process.env.FERRETDB_BIN ?? join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin', 'ferretdb');
}

export async function privateFerretDb(): Promise<PrivateFerretDb> {
  const binary = ferretBinary();
  if (!existsSync(binary)) throw new Error(`the fault suite needs FerretDB at ${binary} (scripts/ferretdb.sh start builds it, or set FERRETDB_BIN)`);
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), 'crawl-faults-ferret-'));
  mkdirSync(join(state, 'data'));
  let child: ChildProcess | undefined;
  let log = '';

  const start = async () => {
    log = '';
    const started = spawn(
      binary,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${state}/data/`,
        `--state-dir=${state}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=error',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    started.stderr?.on('data', (chunk) => (log = (log + String(chunk)).slice(-4_000)));
    child = started;
    const deadline = Date.now() + 15_000;
    while (!(await listening(port))) {
      if (Date.now() > deadline || started.exitCode !== null) throw new Error(`FerretDB did not start on port ${port}:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    kill,
    start,
    async dispose() {
      await kill();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
