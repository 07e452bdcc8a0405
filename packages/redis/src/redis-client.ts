import { Redis, type RedisOptions } from 'ioredis';

export type { Redis as RedisClient } from 'ioredis';

export interface OpenRedisOptions {
  /**
   * `command` (default): commands wait for the connection at most `commandTimeoutMs` (and fail
   * after one reconnect attempt), so a request never hangs on an outage. `blocking`: what BullMQ workers need (retry forever).
   */
  role?: 'command' | 'blocking';
  /** Connection name shown by `CLIENT LIST`. */
  name?: string;
  /** Per-command timeout for the `command` role (default 5 s). */
  commandTimeoutMs?: number;
  /**
   * `false`: commands sent while disconnected fail at once instead of waiting for the connection
   * (producers that bound every call themselves and must not pile up commands in an outage).
   */
  offlineQueue?: boolean;
}

/**
 * One ioredis connection. Reconnects forever with a capped backoff (a Redis restart heals by
 * itself); the `command` role rejects commands while disconnected instead of queueing them.
 */
export function openRedis(url: string, options: OpenRedisOptions = {}): Redis {
  const role = options.role ?? 'command';
  const base: RedisOptions = {
    connectionName: options.name,
    retryStrategy: (times) => Math.min(200 * times, 2_000),
    // Errors are surfaced by the commands that fail; without a listener ioredis logs each one.
    lazyConnect: false,
  };
  const client =
    role === 'blocking'
      ? new Redis(url, { ...base, maxRetriesPerRequest: null, enableReadyCheck: true })
      : new Redis(url, {
          ...base,
          maxRetriesPerRequest: 1,
          commandTimeout: options.commandTimeoutMs ?? 5_000,
          enableOfflineQueue: options.offlineQueue ?? true,
        });
  client.on('error', () => undefined);
  return client;
}

const readiness = new WeakMap<Redis, Promise<void>>();

/**
 * Resolves once a fail-fast connection is connected (commands sent before would fail at once).
 * Callers waiting on one connection share one 'ready' listener, however many there are.
 */
export async function whenConnected(client: Redis, timeoutMs = 2_000): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'end') throw new Error('redis connection closed');
  let ready = readiness.get(client);
  if (!ready) {
    ready = new Promise<void>((resolve) => client.once('ready', () => resolve())).finally(() => readiness.delete(client));
    readiness.set(client, ready);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`redis not connected within ${timeoutMs} ms (${client.status})`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** PING with a deadline: resolves when Redis answers, rejects otherwise (health indicators). */
export async function pingRedis(client: Redis, timeoutMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await Promise.race([
      whenConnected(client, timeoutMs).then(() => client.ping()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`redis did not answer PING within ${timeoutMs} ms (${client.status})`)), timeoutMs);
      }),
    ]);
    if (reply !== 'PONG') throw new Error(`unexpected PING reply: ${String(reply)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a connection without waiting on an unreachable server: QUIT when connected, else drop it. */
export async function closeRedis(client: Redis, timeoutMs = 1_000): Promise<void> {
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([client.quit(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    } catch {
      // fall through to disconnect
    } finally {
      clearTimeout(timer);
    }
  }
  client.disconnect(false);
}

/** Deletes every key under `prefix` (tests: each uses its own prefix and cleans it up). */
export async function deleteKeys(client: Redis, pattern: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
