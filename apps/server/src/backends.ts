import type { BackendsFactory } from '@crawl/runtime';
import { openQueues } from './queue-backend.ts';
import { openStorage } from './storage-backend.ts';

/**
 * The composition root's choice of adapters, from the settings alone: MONGO_URL → MongoDB,
 * else SQLite under DATA_DIR; REDIS_URL → BullMQ (and a `redis` health indicator), else
 * in-process queues. Nothing else in the codebase picks a backend.
 */
export const selectBackends: BackendsFactory = async (runtime, logger) => {
  const storage = await openStorage(runtime);
  const queues = await openQueues(runtime, logger);
  const health: Record<string, () => Promise<void>> = {};
  if (storage.ping) health.mongo = storage.ping;
  let closeProbe = async () => undefined as void;
  if (runtime.REDIS_URL) {
    const { closeRedis, openRedis, pingRedis } = await import('@crawl/redis');
    const probe = openRedis(runtime.REDIS_URL, { name: 'crawl-health' });
    health.redis = () => pingRedis(probe);
    closeProbe = () => closeRedis(probe);
  }
  return {
    openStore: storage.openStore,
    queues,
    health,
    async close() {
      await closeProbe();
      await storage.close();
    },
  };
};
