import { randomUUID } from 'node:crypto';
import type { Simulator } from '@crawl/marketplace-simulator';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { MongoDocumentStore } from '@crawl/storage-mongo';
import { crawlEnv } from './crawling-service.ts';
import { disposableMongo } from './disposable-mongo.ts';
import { reachable } from './reachable.ts';
import { freePort, spawnService, type SpawnedService } from './spawn-service.ts';

/**
 * The ways the service runs, for suites that must pass in each: the all-in-one process on the
 * embedded stores; the five services (gateway, auth, catalog, billing, crawler-worker) as five
 * processes on the embedded stores, their queues on Redis (a worker in another process than
 * catalog cannot share an in-process queue); and the same five on a MongoDB-wire server and Redis.
 * Each run uses its own Redis key prefix and database prefix and removes them when it stops.
 */

const SERVICES = ['gateway', 'auth', 'catalog', 'billing', 'crawler-worker'] as const;
/** The services that own a database (`<prefix><service>` on MongoDB). */
const DATA_SERVICES = ['auth', 'billing', 'catalog'] as const;

/** A running service: where clients connect, and how to take it down. */
export interface RunningService {
  /** The public address (the all-in-one's, or the gateway's). */
  url: string;
  /** The last lines every process wrote, for a failure's message. */
  output(): string;
  /** Stops every process (SIGTERM) and removes what the run left in shared servers; the exit codes by process. */
  stop(): Promise<Record<string, number | null>>;
}

export interface RunMode {
  name: string;
  /** Set when the backends this mode needs are not here (never with CI=true: that throws). */
  skipReason?: string;
  /** Starts the service crawling `sim`; `env` is given to every process (the webhook settings, a test's own). */
  start(sim: Simulator, secret: string, env: Record<string, string>): Promise<RunningService>;
}

function missing(mode: string, reason: string): string {
  if (process.env.CI === 'true') throw new Error(`CI requires the ${mode} run mode: ${reason}`);
  return reason;
}

/** The processes of a run, stopped together; their output joined for a failure's message. */
function group(processes: Map<string, SpawnedService>, url: string, cleanUp: () => Promise<void>): RunningService {
  return {
    url,
    output: () =>
      [...processes.entries()]
        .map(([name, p]) => `--- ${name}\n${p.output().slice(-4_000)}`)
        .join('\n')
        .slice(-12_000),
    async stop() {
      const codes = await Promise.all([...processes.entries()].map(async ([name, p]) => [name, await p.stop()] as const));
      await cleanUp();
      return Object.fromEntries(codes);
    },
  };
}

const allInOne: RunMode = {
  name: 'all-in-one',
  async start(sim, secret, env) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = await spawnService({
      port,
      env: crawlEnv(sim, secret, { MAX_FETCH_ATTEMPTS: '2', WEBHOOK_PUBLIC_BASE_URL: url, ...env }),
      waitFor: '/ready',
      startTimeoutMs: 45_000,
    });
    return group(new Map([['all', service]]), url, async () => undefined);
  },
};

/** Five processes on the stores `storage` names (empty: embedded), queues on Redis under a prefix of this run. */
async function startSplit(sim: Simulator, secret: string, env: Record<string, string>, storage: Record<string, string>, redisUrl: string) {
  const runId = randomUUID().replace(/-/g, '').slice(0, 8);
  const redisPrefix = `e2emon${runId}`;
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<(typeof SERVICES)[number], number>;
  const urlOf = (s: (typeof SERVICES)[number]) => `http://127.0.0.1:${ports[s]}`;
  const mongoPrefix = `mon${runId}_`;
  const common = {
    ...crawlEnv(sim, secret, { MAX_FETCH_ATTEMPTS: '2' }),
    ...storage,
    ...(storage.MONGO_URL ? { MONGO_DB_PREFIX: mongoPrefix } : {}),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    AUTH_URL: urlOf('auth'),
    CATALOG_URL: urlOf('catalog'),
    BILLING_URL: urlOf('billing'),
    GATEWAY_URL: urlOf('gateway'),
    WEBHOOK_PUBLIC_BASE_URL: urlOf('gateway'),
    ...env,
  };
  const processes = new Map<string, SpawnedService>();
  const cleanUp = async () => {
    const redis = openRedis(redisUrl, { name: 'monitors-e2e-cleanup' });
    try {
      await deleteKeys(redis, `${redisPrefix}:*`);
    } finally {
      await closeRedis(redis);
    }
    if (storage.MONGO_URL) {
      for (const service of DATA_SERVICES) {
        const store = new MongoDocumentStore({ url: storage.MONGO_URL, database: `${mongoPrefix}${service}` });
        await store.dropDatabase().catch(() => undefined);
        await store.close();
      }
    }
  };
  const started = await Promise.allSettled(
    SERVICES.map(async (service) => {
      processes.set(
        service,
        await spawnService({ args: [`--target=${service}`], port: ports[service], env: common, waitFor: '/ready', startTimeoutMs: 60_000 }),
      );
    }),
  );
  const running = group(processes, urlOf('gateway'), cleanUp);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await running.stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  return running;
}

/**
 * The modes to run, each with why it is skipped when its backends are missing: Redis at
 * TEST_REDIS_URL (default redis://127.0.0.1:6379), MongoDB at TEST_MONGO_URL, else a private
 * FerretDB (disposable-mongo.ts). With CI=true a missing backend throws.
 */
export async function runModes(): Promise<RunMode[]> {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisUp = await reachable(redisUrl);
  const noRedis = `no Redis at ${redisUrl} (set TEST_REDIS_URL)`;

  const splitEmbedded: RunMode = redisUp
    ? { name: 'split services, embedded stores, queues on Redis', start: (sim, secret, env) => startSplit(sim, secret, env, {}, redisUrl) }
    : { name: 'split services, embedded stores, queues on Redis', skipReason: missing('split (embedded)', noRedis), start: unavailable };

  const splitMongoName = 'split services on MongoDB-wire (FerretDB) and Redis';
  let splitMongo: RunMode;
  if (!redisUp) splitMongo = { name: splitMongoName, skipReason: missing('split (MongoDB)', noRedis), start: unavailable };
  else if (process.env.TEST_MONGO_URL) {
    const mongoUrl = process.env.TEST_MONGO_URL;
    splitMongo = (await reachable(mongoUrl))
      ? { name: splitMongoName, start: (sim, secret, env) => startSplit(sim, secret, env, { MONGO_URL: mongoUrl }, redisUrl) }
      : { name: splitMongoName, skipReason: missing('split (MongoDB)', `TEST_MONGO_URL=${mongoUrl} does not answer`), start: unavailable };
  } else {
    splitMongo = {
      name: splitMongoName,
      // A private FerretDB (or a mongo container), started only when this mode runs.
      async start(sim, secret, env) {
        const found = await disposableMongo();
        if ('skipReason' in found) throw new Error(found.skipReason);
        const running = await startSplit(sim, secret, env, { MONGO_URL: found.mongo.url }, redisUrl).catch(async (error: unknown) => {
          await found.mongo.kill();
          throw error;
        });
        return {
          ...running,
          async stop() {
            const codes = await running.stop();
            await found.mongo.kill();
            return codes;
          },
        };
      },
    };
  }
  return [allInOne, splitEmbedded, splitMongo];
}

async function unavailable(): Promise<RunningService> {
  throw new Error('this run mode is skipped');
}
