import { randomUUID } from 'node:crypto';
import { closeRedis, deleteKeys, openRedis, type RedisClient } from '../redis-client.ts';

/**
 * The connections and keys one test file uses on a shared Redis: `open()` a connection per
 * "replica", `key()` a fresh key of its own, and `close()` (in afterAll) deletes every key and
 * everything under it, then closes the connections. Never a FLUSHALL: other suites share the server.
 */
export function redisTestConnections(url: string) {
  const clients: RedisClient[] = [];
  const roots: string[] = [];
  return {
    open(): RedisClient {
      const client = openRedis(url);
      clients.push(client);
      return client;
    },
    /** `test-<random>:<name>`. */
    key(name = 'upstream'): string {
      const root = `test-${randomUUID().slice(0, 8)}`;
      roots.push(root);
      return `${root}:${name}`;
    },
    async close(): Promise<void> {
      const cleaner = openRedis(url);
      try {
        for (const root of roots) await deleteKeys(cleaner, `${root}:*`);
      } finally {
        await closeRedis(cleaner);
        await Promise.all(clients.map((client) => closeRedis(client)));
      }
    },
  };
}
