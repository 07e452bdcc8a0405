import { CRAWL_QUEUE, CrawlTask } from '@crawl/contracts';
import type { QueueDefinition } from '@crawl/queue';
import { Value } from '@sinclair/typebox/value';

/**
 * The crawl queue as the worker consumes it. Catalog produces into the same queue with the same
 * definition (services/catalog `crawlQueue`): name, retry policy and payload schema must agree.
 */
export function crawlQueueDefinition(attempts = 3): QueueDefinition<CrawlTask> {
  return {
    name: CRAWL_QUEUE,
    retry: { attempts, backoffMs: 2_000, maxBackoffMs: 60_000 },
    parse: (payload) => Value.Parse(CrawlTask, payload),
  };
}
