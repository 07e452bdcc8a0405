import { randomUUID } from 'node:crypto';
import type { Broadcast, QueueDefinition, QueueProvider, WorkQueue } from '@crawl/queue';
import { closeRedis, openRedis, pingRedis, type RedisClient } from '@crawl/redis';
import type { BullMqOptions } from './bullmq-options.ts';
import { BullMqQueue } from './bullmq-queue.ts';
import { RedisBroadcast, RedisSubscriptions } from './redis-broadcast.ts';

/** Queues on one Redis; `close()` closes them all, then the shared connection. */
export class BullMqQueueProvider implements QueueProvider {
  readonly kind = 'bullmq' as const;
  readonly #options: BullMqOptions;
  readonly #client: RedisClient;
  readonly #queues = new Map<string, BullMqQueue<unknown>>();
  readonly #subscriptions: RedisSubscriptions;

  constructor(options: BullMqOptions) {
    this.#options = options;
    // Producer connection: fails fast during an outage instead of queueing commands forever.
    this.#client = openRedis(options.url, {
      name: `crawl-queue-${randomUUID().slice(0, 8)}`,
      offlineQueue: false,
      commandTimeoutMs: options.commandTimeoutMs ?? 5_000,
    });
    // Subscriber mode takes a connection of its own, which retries forever like a worker's.
    this.#subscriptions = new RedisSubscriptions(() => openRedis(options.url, { role: 'blocking', name: `crawl-broadcast-${randomUUID().slice(0, 8)}` }));
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

  /** Channels are named under the prefix, so deployments sharing a Redis do not hear each other. */
  broadcast(topic: string): Broadcast {
    return new RedisBroadcast(topic, `${this.prefix}:broadcast:${topic}`, this.#client, this.#subscriptions);
  }

  /** PING with a deadline (the `redis` health indicator). */
  async ping(timeoutMs = 2_000): Promise<void> {
    await pingRedis(this.#client, timeoutMs);
  }

  async close(graceMs?: number): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close(graceMs)));
    await Promise.all([...this.#queues.values()].map((queue) => queue.closeProducer()));
    await this.#subscriptions.close();
    await closeRedis(this.#client);
  }
}
