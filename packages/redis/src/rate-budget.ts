import type { Redis } from 'ioredis';

/**
 * GCRA with reservations, atomically in Redis. KEYS[1] theoretical arrival time (ms), KEYS[2] the
 * shared rate (requests per minute; absent: ARGV[1]). ARGV[2] burst, ARGV[3] now in ms ('' = the
 * Redis server's clock, so replicas with skewed clocks still share one schedule).
 * Each call reserves the next free slot and returns {wait ms, rate}: callers sleep until their
 * slot, so all callers together never go faster than `rate` (after an initial `burst`).
 */
const RESERVE = `
local rate = tonumber(redis.call('GET', KEYS[2]) or ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local interval = 60000 / rate
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local at = tat - (burst - 1) * interval
if at < now then at = now end
local nextTat = tat + interval
redis.call('SET', KEYS[1], string.format('%.3f', nextTat), 'PX', math.ceil(nextTat - now + burst * interval + 60000))
return { string.format('%.3f', at - now), tostring(rate) }
`;

export interface RateBudgetOptions {
  redis: Redis;
  /** Key namespace of this budget (e.g. `crawl:upstream`). */
  key: string;
  /**
   * The egress identity (direct connection or one proxy) this budget schedules. Identities of one
   * key keep their own schedule but share the one rate, so an admin-set rate applies to each.
   */
  identity?: string;
  /** Used while no rate is stored in Redis. */
  defaultPerMinute: number;
  /** Requests that may go back to back after an idle spell (bucket capacity). */
  burst?: number;
  /** The clock slots are computed on; default: the Redis server's clock. */
  now?: () => number;
}

export interface Reservation {
  /** How long the caller waits for its slot. */
  waitMs: number;
  /** The rate in force (requests per minute), as stored in Redis. */
  perMinute: number;
}

/** One request budget shared by every process that uses the same Redis, key and identity. */
export class RedisRateBudget {
  readonly #redis: Redis;
  readonly #tatKey: string;
  readonly #rateKey: string;
  readonly #defaultPerMinute: number;
  readonly #burst: number;
  readonly #now: (() => number) | undefined;

  constructor(options: RateBudgetOptions) {
    this.#redis = options.redis;
    this.#tatKey = options.identity === undefined ? `${options.key}:tat` : `${options.key}:tat:${options.identity}`;
    this.#rateKey = `${options.key}:rate`;
    this.#defaultPerMinute = options.defaultPerMinute;
    this.#burst = Math.max(1, options.burst ?? 1);
    this.#now = options.now;
  }

  async reserve(): Promise<Reservation> {
    const [wait, rate] = (await this.#redis.eval(
      RESERVE,
      2,
      this.#tatKey,
      this.#rateKey,
      String(this.#defaultPerMinute),
      String(this.#burst),
      this.#now ? String(this.#now()) : '',
    )) as [string, string];
    return { waitMs: Math.ceil(Number(wait)), perMinute: Number(rate) };
  }

  /** Stores the rate for every process at once; the next reservation anywhere uses it. */
  async setRate(perMinute: number): Promise<void> {
    await this.#redis.set(this.#rateKey, String(perMinute));
  }

  /** The stored rate, or the default while none is stored. */
  async rate(): Promise<number> {
    const stored = await this.#redis.get(this.#rateKey);
    return stored === null ? this.#defaultPerMinute : Number(stored);
  }
}
