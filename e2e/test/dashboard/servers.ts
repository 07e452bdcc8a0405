import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_SIMULATOR_ENV, registerAdmin, startListeningAllInOne } from '@crawl/server/testing';
import { REPO_ROOT } from '../spawn-service.ts';

/** Settings of the service the browser drives: the simulator at full speed, the sandbox checkout, a local webhook receiver allowed. */
export const DASHBOARD_TEST_ENV: Record<string, string> = { ...FAST_SIMULATOR_ENV, MAX_FETCH_ATTEMPTS: '1', PAYMENT_PROVIDER: 'sandbox' };

/** A deployment the browser drives, in either run mode. */
export interface Deployment {
  url: string;
  /** A new account made an admin the only way there is (auth's store, as `crawl-server admin grant` writes it). */
  registerAdmin(): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
}

/** The whole service in this process (gateway included, so /app is served), on a loopback port. */
export async function startAllInOne(): Promise<Deployment> {
  const { url, service, close } = await startListeningAllInOne(DASHBOARD_TEST_ENV);
  return { url, registerAdmin: () => registerAdmin(service), close };
}

export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** An HTTP endpoint that accepts every webhook delivery and keeps it. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
const BIN = 'apps/server/src/bin.ts';

/** `crawl-server admin grant EMAIL` against a running process's stores, as an operator runs it. */
async function grantAdmin(server: SpawnedServer, email: string): Promise<void> {
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, 'admin', 'grant', email], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...server.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`admin grant ${email} exited ${code}: ${output}`);
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `bin.ts` in a process of its own, as `pnpm start` runs it, once it answers /ready. */
interface SpawnedServer {
  url: string;
  /** The settings it runs with (its DATA_DIR included), for an admin command on its stores. */
  env: Record<string, string>;
  stop(): Promise<void>;
  output(): string;
}

async function spawnServer(args: string[], env: Record<string, string>): Promise<SpawnedServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-dashboard-e2e-'));
  let output = '';
  const fullEnv = { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test' };
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...fullEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early:\n${output}`);
    const ready = await fetch(`${url}/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return { url, env: fullEnv, stop, output: () => output };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${args.join(' ')} did not get ready in 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The split deployment: the gateway in one process (serving /app and forwarding the API) in front
 * of auth, billing, catalog and the crawler-worker in another, as on Kubernetes.
 */
export async function startSplit(): Promise<Deployment> {
  const env = { ...DASHBOARD_TEST_ENV, JWT_SECRET: `dashboard-split-${randomUUID()}-${randomUUID()}` };
  const services = await spawnServer(['--target=auth,billing,catalog,crawler-worker'], env);
  const urls = { AUTH_URL: services.url, BILLING_URL: services.url, CATALOG_URL: services.url };
  try {
    const gateway = await spawnServer(['--target=gateway'], { ...env, ...urls });
    return {
      url: gateway.url,
      registerAdmin: async () => {
        const account = { email: `admin-${randomUUID()}@example.com`, password: 'a-long-enough-admin-password' };
        const registered = await fetch(`${gateway.url}/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(account),
        });
        if (registered.status !== 201) throw new Error(`register ${account.email}: ${registered.status} ${await registered.text()}`);
        await grantAdmin(services, account.email);
        return account;
      },
      close: async () => {
        await gateway.stop();
        await services.stop();
      },
    };
  } catch (error) {
    await services.stop();
    throw error;
  }
}
