import type { Redis } from 'ioredis';

/** Server time in ms, or ARGV[1] when the caller passes its own clock (tests). */
const NOW = `
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * One blocked response through an identity. KEYS: strikes (blocks in a row), recent blocks (a
 * window of ARGV[3] ms), cooled-down-until (ms). ARGV[2] strikes that cool it down for ARGV[3] ms.
 * Returns {ms left of the cool-down (0: none), blocks in the window}.
 */
const RECORD_BLOCK = `${NOW}
local restMs = tonumber(ARGV[3])
local strikes = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], restMs)
local recent = redis.call('INCR', KEYS[2])
if recent == 1 then redis.call('PEXPIRE', KEYS[2], restMs) end
local untilMs = tonumber(redis.call('GET', KEYS[3]) or '0')
if strikes >= tonumber(ARGV[2]) then
  untilMs = now + restMs
  redis.call('SET', KEYS[3], tostring(untilMs), 'PX', restMs)
  redis.call('DEL', KEYS[1])
end
local left = untilMs - now
if left < 0 then left = 0 end
return { left, recent }
`;

/** KEYS: pairs (cooled-down-until, recent blocks) per identity. Returns {ms left, blocks} per pair. */
const READ = `${NOW}
local out = {}
for i = 1, #KEYS, 2 do
  local left = tonumber(redis.call('GET', KEYS[i]) or '0') - now
  if left < 0 then left = 0 end
  table.insert(out, left)
  table.insert(out, tonumber(redis.call('GET', KEYS[i + 1]) or '0'))
end
return out
`;

export interface EgressHealthOptions {
  redis: Redis;
  /** Key namespace (e.g. `crawl:upstream`); identities live under `<key>:health:<id>:*`. */
  key: string;
  /** Blocked responses in a row (from every replica together) that cool an identity down. */
  restAfterBlocks: number;
  /** Length of a cool-down, and the window `blockedRecently` counts over. */
  restMs: number;
  /** The clock of this process: cool-down ends are returned on it (Redis computes on its own). */
  now?: () => number;
  /** The clock Redis computes on; default: the Redis server's (replicas with skewed clocks agree). */
  serverNow?: () => number;
}

export interface EgressHealth {
  id: string;
  /** Epoch ms (this process's clock) the cool-down ends; undefined when not cooled down. */
  cooledDownUntil: number | undefined;
  /** Blocked responses in the last `restMs`. */
  blockedRecently: number;
}

/**
 * Block strikes and cool-downs of egress identities shared by every worker replica: a proxy that
 * replicas together see blocked `restAfterBlocks` times in a row is cooled down for all of them.
 */
export class RedisEgressHealth {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #restAfter: number;
  readonly #restMs: number;
  readonly #now: () => number;
  readonly #serverNow: (() => number) | undefined;

  constructor(options: EgressHealthOptions) {
    this.#redis = options.redis;
    this.#key = options.key;
    this.#restAfter = Math.max(1, options.restAfterBlocks);
    this.#restMs = Math.max(1, options.restMs);
    this.#now = options.now ?? Date.now;
    this.#serverNow = options.serverNow;
  }

  async recordBlock(id: string): Promise<EgressHealth> {
    const [left, recent] = (await this.#redis.eval(
      RECORD_BLOCK,
      3,
      this.#k(id, 'strikes'),
      this.#k(id, 'recent'),
      this.#k(id, 'cool'),
      this.#clock(),
      String(this.#restAfter),
      String(this.#restMs),
    )) as [number, number];
    return this.#health(id, left, recent);
  }

  /** A success ends the run of blocks (the cool-down in force, if any, stays). */
  async recordSuccess(id: string): Promise<void> {
    await this.#redis.del(this.#k(id, 'strikes'));
  }

  async read(ids: readonly string[]): Promise<EgressHealth[]> {
    if (ids.length === 0) return [];
    const keys = ids.flatMap((id) => [this.#k(id, 'cool'), this.#k(id, 'recent')]);
    const values = (await this.#redis.eval(READ, keys.length, ...keys, this.#clock())) as number[];
    return ids.map((id, i) => this.#health(id, Number(values[2 * i]), Number(values[2 * i + 1])));
  }

  #health(id: string, leftMs: number, recent: number): EgressHealth {
    return { id, cooledDownUntil: leftMs > 0 ? this.#now() + leftMs : undefined, blockedRecently: Number(recent) };
  }

  #clock(): string {
    return this.#serverNow ? String(this.#serverNow()) : '';
  }

  #k(id: string, part: string): string {
    return `${this.#key}:health:${id}:${part}`;
  }
}
