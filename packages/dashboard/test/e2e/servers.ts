import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';

/** Settings of the all-in-one the browser drives: the simulator at full speed, the sandbox checkout, a local webhook receiver allowed. */
export const DASHBOARD_TEST_ENV: Record<string, string> = {
  MARKETPLACE: 'simulator',
  UPSTREAM_RATE_PER_MINUTE: '60000',
  UPSTREAM_BURST: '50',
  CRAWL_CONCURRENCY: '4',
  FETCH_BACKOFF_MS: '20',
  MAX_FETCH_ATTEMPTS: '1',
  SHUTDOWN_GRACE_MS: '1000',
  PAYMENT_PROVIDER: 'sandbox',
  WEBHOOK_REQUIRE_HTTPS: 'false',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

export interface RunningServer {
  url: string;
  service: TestService;
  close(): Promise<void>;
}

/** The whole service in this process (gateway included, so /app is served), on a loopback port. */
export async function startAllInOne(): Promise<RunningServer> {
  const service = await startTestService({ targets: [...SERVICE_NAMES], env: DASHBOARD_TEST_ENV });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { url, service, close: () => service.close() };
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

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..', '..');

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `bin.ts` in a process of its own, as `pnpm start` runs it, once it answers /ready. */
async function spawnServer(args: string[], env: Record<string, string>): Promise<{ url: string; stop(): Promise<void>; output(): string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-dashboard-e2e-'));
  let output = '';
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', 'packages/server/src/bin.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
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
    if (ready) return { url, stop, output: () => output };
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
export async function startSplit(): Promise<Omit<RunningServer, 'service'>> {
  const env = { ...DASHBOARD_TEST_ENV, JWT_SECRET: `dashboard-split-${randomUUID()}-${randomUUID()}` };
  const services = await spawnServer(['--target=auth,billing,catalog,crawler-worker'], env);
  const urls = { AUTH_URL: services.url, BILLING_URL: services.url, CATALOG_URL: services.url };
  try {
    const gateway = await spawnServer(['--target=gateway'], { ...env, ...urls });
    return {
      url: gateway.url,
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
