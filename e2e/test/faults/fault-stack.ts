/**
 * The split deployment the fault suite breaks: gateway, auth, billing, catalog and crawler-worker
 * as separate processes on a FerretDB and a Redis of the suite's own (never the shared ones: the
 * suite kills, restarts and flushes them), with the marketplace simulator as the upstream. Every
 * process can be killed and started again on the same port, data and settings.
 *
 * Recovery settings (requeue, reconciler, queue attempts, fetch retries) stay at their defaults:
 * the matrix checks what an operator gets without tuning. Only what makes a test run possible is
 * set: cheap password hashing, generous quotas, a fast upstream, a 1 s scheduler tick.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, type Simulator, type SimulatorOptions } from '@crawl/marketplace-simulator';
import { privateRedis, type PrivateRedis } from '@crawl/redis/testing';
import { InternalTokens } from '@crawl/service-client';
import { MongoDocumentStore } from '@crawl/storage-mongo';
import { freePort, spawnService, type SpawnedService } from '../spawn-service.ts';
import { privateFerretDb, type PrivateFerretDb } from './private-ferretdb.ts';

export type ServiceName = 'gateway' | 'auth' | 'billing' | 'catalog' | 'crawler-worker';

/** One service process that outlives its kills: `start()` brings it back on the same port. */
export class ServiceProcess {
  readonly name: ServiceName;
  readonly port: number;
  readonly url: string;
  readonly #env: Record<string, string>;
  readonly #dataDir: string;
  #spawned: SpawnedService | undefined;
  #log = '';

  constructor(name: ServiceName, port: number, env: Record<string, string>) {
    this.name = name;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.#env = env;
    this.#dataDir = mkdtempSync(join(tmpdir(), `crawl-faults-${name}-`));
  }

  get running(): boolean {
    const child = this.#spawned?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.#spawned?.child.pid;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (this.#spawned) this.#log += this.#spawned.output();
    this.#spawned = await spawnService({
      args: [`--target=${this.name}`],
      port: this.port,
      dataDir: this.#dataDir,
      env: this.#env,
      waitFor: '/ready',
      startTimeoutMs: 60_000,
    });
  }

  /** Sends `signal` and waits for the exit; resolves with the exit code (null after a signal death). */
  async kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null> {
    const child = this.#spawned?.child;
    if (!child || !this.running) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  /** Synchronous last resort when the test process itself goes away. */
  killNow(): void {
    if (this.running) this.#spawned?.child.kill('SIGKILL');
  }

  output(): string {
    return this.#log + (this.#spawned?.output() ?? '');
  }

  dispose(): void {
    rmSync(this.#dataDir, { recursive: true, force: true });
  }
}

export interface FaultStackOptions {
  /** Catalog processes sharing the database and Redis; the gateway talks to the first. */
  catalogs?: number;
  /** Worker processes; worker i reports to catalog i modulo the number of catalogs. */
  workers?: number;
  simulator?: SimulatorOptions;
}

export interface FaultStack {
  gateway: ServiceProcess;
  auth: ServiceProcess;
  billing: ServiceProcess;
  catalogs: ServiceProcess[];
  workers: ServiceProcess[];
  all(): ServiceProcess[];
  redis: PrivateRedis;
  mongo: PrivateFerretDb;
  sim: Simulator;
  /** Signs service tokens for calling internal routes as the worker does. */
  tokens: InternalTokens;
  /** The catalog and billing databases, read directly to check the invariants. */
  catalogDb: MongoDocumentStore;
  billingDb: MongoDocumentStore;
  /** The last lines each process wrote, for a failing row's message. */
  dump(): string;
  close(): Promise<void>;
}

export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const redisResult = await privateRedis();
  if ('skipReason' in redisResult) throw new Error(`the fault suite needs redis-server: ${redisResult.skipReason}`);
  const redis = redisResult.redis;
  const mongo = await privateFerretDb().catch(async (error) => {
    await redis.kill();
    throw error;
  });
  const sim = await createSimulator({ pageSize: 'small', seed: 12, ...options.simulator });

  const runId = randomUUID().replace(/-/g, '').slice(0, 8);
  const dbPrefix = `faults${runId}_`;
  const internalSecret = `fault-suite-internal-secret-${runId}-0123456789abcdef`;
  const catalogCount = options.catalogs ?? 1;
  const workerCount = options.workers ?? 1;
  const [gatewayPort, authPort, billingPort, ...rest] = await Promise.all(Array.from({ length: 3 + catalogCount + workerCount }, () => freePort()));
  const catalogPorts = rest.slice(0, catalogCount);
  const workerPorts = rest.slice(catalogCount);
  const at = (port: number | undefined) => `http://127.0.0.1:${port}`;
  const common: Record<string, string> = {
    JWT_SECRET: `fault-suite-jwt-secret-${runId}-0123456789abcdef`,
    INTERNAL_SECRET: internalSecret,
    MONGO_URL: mongo.url,
    MONGO_DB_PREFIX: dbPrefix,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `faults${runId}`,
    AUTH_URL: at(authPort),
    CATALOG_URL: at(catalogPorts[0]),
    BILLING_URL: at(billingPort),
    GATEWAY_URL: at(gatewayPort),
    LOG_LEVEL: 'warn',
  };
  const gateway = new ServiceProcess('gateway', gatewayPort as number, { ...common, RATE_LIMIT_OVERRIDES: 'auth-ip=1000,auth-ip-email=1000,register-ip=1000' });
  const auth = new ServiceProcess('auth', authPort as number, { ...common, ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1' });
  const billing = new ServiceProcess('billing', billingPort as number, {
    ...common,
    LIMIT_JOBS_PER_MONTH: '100000',
    LIMIT_TARGETS_PER_MONTH: '1000000',
  });
  const catalogs = catalogPorts.map((port) => new ServiceProcess('catalog', port, { ...common, SCHEDULER_TICK_MS: '1000', MARKETPLACE_EXTRA_HOSTS: sim.host }));
  const workers = workerPorts.map(
    (port, i) =>
      new ServiceProcess('crawler-worker', port, {
        ...common,
        CATALOG_URL: at(catalogPorts[i % catalogCount]),
        MARKETPLACE: 'live',
        MARKETPLACE_BASE_URL: sim.url,
        UPSTREAM_RATE_PER_MINUTE: '6000',
        UPSTREAM_BURST: '20',
      }),
  );
  const all = () => [gateway, auth, billing, ...catalogs, ...workers];
  // Children must not outlive a test process that dies without reaching afterAll.
  const killAll = () => {
    for (const service of all()) service.killNow();
    void redis.kill();
    void mongo.kill();
  };
  process.once('exit', killAll);

  const catalogDb = new MongoDocumentStore({ url: mongo.url, database: `${dbPrefix}catalog` });
  const billingDb = new MongoDocumentStore({ url: mongo.url, database: `${dbPrefix}billing` });
  const stack: FaultStack = {
    gateway,
    auth,
    billing,
    catalogs,
    workers,
    all,
    redis,
    mongo,
    sim,
    tokens: new InternalTokens(internalSecret),
    catalogDb,
    billingDb,
    dump: () =>
      all()
        .map((s) => `--- ${s.name} :${s.port}\n${s.output().slice(-3_000)}`)
        .join('\n'),
    async close() {
      await Promise.allSettled(all().map((s) => s.kill('SIGKILL')));
      for (const service of all()) service.dispose();
      await Promise.allSettled([catalogDb.close(), billingDb.close(), sim.close()]);
      await redis.kill();
      await mongo.dispose();
      process.removeListener('exit', killAll);
    },
  };
  try {
    // Data owners first, so the gateway's and worker's readiness checks find them.
    await Promise.all([auth.start(), billing.start(), ...catalogs.map((c) => c.start())]);
    await Promise.all([gateway.start(), ...workers.map((w) => w.start())]);
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}
