import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, 'ferretdb.sh');
const GOPATH = process.env.GOPATH ?? join(process.env.HOME ?? '', 'go');
const binaryBuilt = existsSync(join(GOPATH, 'bin', 'ferretdb'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function ferretdb(command: 'start' | 'stop', env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(SCRIPT, [command], { env: { ...process.env, FERRETDB_SETTLE_SECONDS: '0.5', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

// Building FerretDB takes minutes; CI builds it before the tests (.ci/run), so there it must exist.
const run = binaryBuilt || process.env.CI === 'true' ? describe : describe.skip;

run('scripts/ferretdb.sh', () => {
  const stateDirs: string[] = [];
  const stops: Array<() => Promise<Run>> = [];
  const instance = async (extra: Record<string, string> = {}) => {
    const state = mkdtempSync(join(tmpdir(), 'ferretdb-script-test-'));
    stateDirs.push(state);
    const port = await freePort();
    const env = { FERRETDB_PORT: String(port), FERRETDB_STATE_DIR: state, ...extra };
    stops.push(() => ferretdb('stop', env));
    return { port, state, start: () => ferretdb('start', env) };
  };
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('starts two instances side by side, each printing its URL only once it answers', async () => {
    const [a, b] = [await instance(), await instance()];
    const [startedA, startedB] = await Promise.all([a.start(), b.start()]);
    expect(startedA).toMatchObject({ code: 0, stdout: `mongodb://127.0.0.1:${a.port}/\n` });
    expect(startedB).toMatchObject({ code: 0, stdout: `mongodb://127.0.0.1:${b.port}/\n` });
    expect(await answers(a.port)).toBe(true);
    expect(await answers(b.port)).toBe(true);
  }, 60_000);

  it('exits non-zero with the log, printing no URL, when the server dies right after starting', async () => {
    // Its debug listener is told to bind a port that is taken: FerretDB exits at once.
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const broken = await instance({ FERRETDB_DEBUG_ADDR: `127.0.0.1:${(taken.address() as AddressInfo).port}` });
      const result = await broken.start();
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('FerretDB did not start');
      expect(result.stderr).toContain('address already in use');
      expect(await answers(broken.port)).toBe(false);
      expect(readFileSync(join(broken.state, 'ferretdb.log'), 'utf8')).toContain('address already in use');
    } finally {
      taken.close();
    }
  }, 60_000);
});
