import type { Logger } from '@crawl/logging';
import type { RuntimeConfig } from '@crawl/runtime';
import type { QueueProvider } from '@crawl/queue';

/**
 * REDIS_URL selects BullMQ for every queue of the process; unset, queues live in the process.
 * Only the chosen adapter package is imported.
 */
export async function openQueues(runtime: RuntimeConfig, logger: Logger): Promise<QueueProvider> {
  if (!runtime.REDIS_URL) {
    const { InProcessQueueProvider } = await import('@crawl/queue-memory');
    return new InProcessQueueProvider();
  }
  const { BullMqQueueProvider } = await import('@crawl/queue-bullmq');
  return new BullMqQueueProvider({ url: runtime.REDIS_URL, prefix: runtime.REDIS_PREFIX, logger });
}
