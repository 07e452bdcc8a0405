// The three deployments the read-path figures measure, each as child processes on 127.0.0.1
// started the way `pnpm start` starts the service (`@crawl/server/start-command`):
//   all-in-one   one process, embedded SQLite and the in-process queue
//   split        gateway, auth, billing and catalog each in its own process on embedded stores,
//                the gateway forwarding to catalog over HTTP
//   split-mongo  the same four on MongoDB-wire (MONGO_URL) + Redis, with their own prefixes
// The crawler-worker is left out of the split ones: the bench reads a job, it does not crawl it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCommand } from '@crawl/server/start-command';
import { freePort, REPO_ROOT, startChild, type ChildServer } from '../storage/server.ts';

export type TopologyName = 'all-in-one' | 'split' | 'split-mongo';

export interface Topology {
  name: TopologyName;
  /** The public entry point (the all-in-one, or the split gateway). */
  url: string;
  jwtSecret: string;
  /** Every process, gateway (or the all-in-one) first. */
  processes: ChildServer[];
  stop(): Promise<void>;
}

const HUGE = '1000000000';

/** Settings every process of a deployment gets: no throttles or limits in the bench's way. */
function commonEnv(extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'production',
    // BENCH_LOG_LEVEL: the level the processes log at (info is the default a deployment runs with).
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    MARKETPLACE: 'simulator',
    SIGNUP_BONUS_CREDITS: HUGE,
    LIMIT_JOBS_PER_MONTH: HUGE,
    LIMIT_TARGETS_PER_MONTH: HUGE,
    LIMIT_EXPORTS_PER_MONTH: HUGE,
    RATE_LIMIT_OVERRIDES: 'auth-ip=10000,auth-ip-email=10000,register-ip=10000',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    INTERNAL_SECRET: randomBytes(48).toString('base64url'),
    ...extra,
  };
}

async function startProcess(name: string, target: string, env: Record<string, string>, port: number, startTimeoutMs: number): Promise<ChildServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `crawl-bench-read-${target}-`));
  const start = startCommand(REPO_ROOT);
  return startChild({
    name,
    // BENCH_NODE_FLAGS: extra Node flags for every service process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
    nodeFlags: [...start.nodeFlags, ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)],
    args: [...start.args, `--target=${target}`],
    cwd: REPO_ROOT,
    env: { ...start.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    port,
    readyPath: '/ready',
    startTimeoutMs,
    // The processes log as deployed (one line per request at info), to a file as a log collector would read.
    logFile: join(dataDir, 'service.log'),
    afterStop: () => rmSync(dataDir, { recursive: true, force: true }),
  });
}

async function stopAll(processes: ChildServer[]): Promise<void> {
  await Promise.all(processes.map((p) => p.stop()));
}

export async function startAllInOne(startTimeoutMs: number): Promise<Topology> {
  const env = commonEnv({});
  const service = await startProcess('the all-in-one', 'all', env, await freePort(), startTimeoutMs);
  return { name: 'all-in-one', url: service.url, jwtSecret: env.JWT_SECRET as string, processes: [service], stop: () => stopAll([service]) };
}

/** Gateway, auth, billing and catalog in four processes; `stores` adds MONGO_URL/REDIS_URL and their prefixes. */
export async function startSplit(name: TopologyName, stores: Record<string, string>, startTimeoutMs: number): Promise<Topology> {
  const ports = { gateway: await freePort(), auth: await freePort(), billing: await freePort(), catalog: await freePort() };
  const at = (port: number) => `http://127.0.0.1:${port}`;
  const env = commonEnv({
    ...stores,
    GATEWAY_URL: at(ports.gateway),
    AUTH_URL: at(ports.auth),
    BILLING_URL: at(ports.billing),
    CATALOG_URL: at(ports.catalog),
  });
  const started: ChildServer[] = [];
  try {
    // Owners first, the gateway last: it forwards to all of them.
    for (const target of ['auth', 'billing', 'catalog', 'gateway'] as const) {
      started.push(await startProcess(`${name} ${target}`, target, env, ports[target], startTimeoutMs));
    }
  } catch (error) {
    await stopAll(started);
    throw error;
  }
  const processes = [...started].reverse();
  return { name, url: at(ports.gateway), jwtSecret: env.JWT_SECRET as string, processes, stop: () => stopAll(processes) };
}
