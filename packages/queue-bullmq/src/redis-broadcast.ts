import type { Broadcast } from '@crawl/queue';
import type { RedisClient } from '@crawl/redis';

/**
 * A topic on Redis pub/sub. Publishing uses the provider's command connection; subscribing needs
 * a connection in subscriber mode, which the provider opens once and shares between topics.
 */
export class RedisBroadcast implements Broadcast {
  readonly topic: string;
  readonly #channel: string;
  readonly #publisher: RedisClient;
  readonly #subscriptions: RedisSubscriptions;

  constructor(topic: string, channel: string, publisher: RedisClient, subscriptions: RedisSubscriptions) {
    this.topic = topic;
    this.#channel = channel;
    this.#publisher = publisher;
    this.#subscriptions = subscriptions;
  }

  async publish(message: string): Promise<void> {
    await this.#publisher.publish(this.#channel, message);
  }

  subscribe(listener: (message: string) => void): () => void {
    return this.#subscriptions.add(this.#channel, listener);
  }
}

/**
 * The subscriber connection's channels and their listeners: a channel is subscribed while it has
 * a listener. ioredis subscribes again by itself after a reconnect; messages published while it
 * was away are lost, which the port allows.
 */
export class RedisSubscriptions {
  readonly #open: () => RedisClient;
  readonly #listeners = new Map<string, Set<(message: string) => void>>();
  #connection: RedisClient | undefined;

  constructor(open: () => RedisClient) {
    this.#open = open;
  }

  add(channel: string, listener: (message: string) => void): () => void {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      this.#subscriber()
        .subscribe(channel)
        .catch(() => undefined);
    }
    listeners.add(listener);
    return () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.#listeners.delete(channel);
      this.#connection?.unsubscribe(channel).catch(() => undefined);
    };
  }

  #subscriber(): RedisClient {
    if (this.#connection) return this.#connection;
    const connection = this.#open();
    connection.on('message', (channel: string, message: string) => {
      for (const listener of this.#listeners.get(channel) ?? []) {
        try {
          listener(message);
        } catch {
          // One subscriber's failure must not keep the message from the others.
        }
      }
    });
    this.#connection = connection;
    return connection;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.disconnect();
  }
}
