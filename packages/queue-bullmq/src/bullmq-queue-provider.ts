import { randomUUID } from 'node:crypto';
import type { QueueDefinition, QueueProvider, WorkQueue } from '@crawl/queue';
import { closeRedis, openRedis, pingRedis, type RedisClient } from '@crawl/redis';
import type { BullMqOptions } from './bullmq-options.ts';
import { BullMqQueue } from './bullmq-queue.ts';

/** Queues on one Redis; `close()` closes them all, then the shared connection. */
export class BullMqQueueProvider implements QueueProvider {
  readonly kind = 'bullmq' as const;
  readonly #options: BullMqOptions;
  readonly #client: RedisClient;
  readonly #queues = new Map<string, BullMqQueue<unknown>>();

  constructor(options: BullMqOptions) {
    this.#options = options;
    // Producer connection: fails fast during an outage instead of queueing commands forever.
    this.#client = openRedis(options.url, {
      name: `crawl-queue-${randomUUID().slice(0, 8)}`,
      offlineQueue: false,
      commandTimeoutMs: options.commandTimeoutMs ?? 5_000,
    });
  }

  get prefix(): string {
    return this.#options.prefix ?? 'crawl';
  }

  queue<P>(definition: QueueDefinition<P>): WorkQueue<P> {
    let queue = this.#queues.get(definition.name);
    if (!queue) {
      queue = new BullMqQueue(definition, this.#client, this.#options) as BullMqQueue<unknown>;
      this.#queues.set(definition.name, queue);
    }
    return queue as unknown as WorkQueue<P>;
  }

  /** PING with a deadline (the `redis` health indicator). */
  async ping(timeoutMs = 2_000): Promise<void> {
    await pingRedis(this.#client, timeoutMs);
  }

  async close(graceMs?: number): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close(graceMs)));
    await Promise.all([...this.#queues.values()].map((queue) => queue.closeProducer()));
    await closeRedis(this.#client);
  }
}
