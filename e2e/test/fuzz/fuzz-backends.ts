import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { closeRedis, deleteKeys, openRedis } from '@crawl/redis';
import { redisTestServer } from '@crawl/redis/testing';
import type { DocumentStore } from '@crawl/storage';
import { MongoDocumentStore } from '@crawl/storage-mongo';
import { mongoTestServer } from '@crawl/storage-mongo/test-server';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';

/** The services that own a database (one per service, `<prefix><service>` on MongoDB). */
const DATA_SERVICES = ['auth', 'billing', 'catalog'];

/** One way to run the all-in-one under the fuzzer, with its share of the requests. */
export interface FuzzBackend {
  name: string;
  requests: number;
  env: Record<string, string>;
  /** Billing's database, opened after the service stopped, to check the ledger. */
  openBillingStore(dataDir: string): DocumentStore;
  /** Drops what the run left in shared servers (databases, Redis keys). */
  cleanUp(): Promise<void>;
}

/**
 * The embedded backend (SQLite files, in-process queues) always; MongoDB (TEST_MONGO_URL) with
 * BullMQ on Redis (TEST_REDIS_URL), under prefixes of their own, when both are reachable. With
 * CI=true a missing server fails the run (the helpers throw) instead of skipping it.
 * `FUZZ_REQUESTS` is the embedded run's count; MongoDB gets a quarter of it, 10,000 + 2,500 by
 * default: FerretDB answers two to three times slower than SQLite here (about 3 ms against 2 ms a
 * request on an idle 2-core machine, 23 against 9 under load), and the run must fit CI's minutes.
 */
export async function fuzzBackends(): Promise<{ backends: FuzzBackend[]; skipped: string[] }> {
  const requests = Number(process.env.FUZZ_REQUESTS ?? 10_000);
  if (!Number.isSafeInteger(requests) || requests < 1) throw new Error(`FUZZ_REQUESTS must be a positive integer (got ${process.env.FUZZ_REQUESTS})`);
  const embedded: FuzzBackend = {
    name: 'embedded (SQLite, in-process queues)',
    requests,
    env: {},
    openBillingStore: (dataDir) => new EmbeddedDocumentStore({ path: join(dataDir, 'billing.db') }),
    cleanUp: async () => undefined,
  };
  const mongo = await mongoTestServer();
  const redis = await redisTestServer();
  if (!('server' in mongo) || !('server' in redis)) {
    const skipped = [mongo, redis].flatMap((found) => ('skipReason' in found ? [found.skipReason] : []));
    return { backends: [embedded], skipped };
  }
  const prefix = `fz${randomUUID().slice(0, 8)}`;
  const mongoUrl = mongo.server.url;
  const redisUrl = redis.server.url;
  const database = (service: string) => `${prefix}_${service}`;
  return {
    skipped: [],
    backends: [
      embedded,
      {
        name: 'MongoDB + BullMQ on Redis',
        requests: Math.max(1, Math.round(requests / 4)),
        env: { MONGO_URL: mongoUrl, MONGO_DB_PREFIX: `${prefix}_`, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
        openBillingStore: () => new MongoDocumentStore({ url: mongoUrl, database: database('billing') }),
        async cleanUp() {
          for (const service of DATA_SERVICES) {
            const store = new MongoDocumentStore({ url: mongoUrl, database: database(service) });
            await store.dropDatabase().catch(() => undefined);
            await store.close();
          }
          const client = openRedis(redisUrl, { name: 'fuzz-clean-up' });
          await deleteKeys(client, `${prefix}*`);
          await closeRedis(client);
          await Promise.all([mongo.server.stop(), redis.server.stop()]);
        },
      },
    ],
  };
}
