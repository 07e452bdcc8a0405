import { createHash } from 'node:crypto';

/** Where upstream requests leave from: the direct connection, or one configured proxy. */
export interface EgressIdentity {
  /** Stable across replicas with the same PROXY_URLS; reveals nothing of the credentials. */
  readonly id: string;
  /** The proxy URL with its credentials masked, or `direct`. */
  readonly label: string;
  /** Undefined: direct connection. */
  readonly proxy: string | undefined;
}

export interface EgressIdentityState {
  id: string;
  label: string;
  /** Epoch ms the cool-down ends; undefined when the identity takes work. */
  cooledDownUntil: number | undefined;
  /** Blocked responses in the last `restMs`. */
  blockedRecently: number;
}

/**
 * Strikes and cool-downs shared by every worker replica (the Redis adapter is `RedisEgressHealth`
 * of @crawl/redis). Without one, each process counts its own.
 */
export interface SharedEgressHealth {
  recordBlock(id: string): Promise<{ cooledDownUntil: number | undefined; blockedRecently: number }>;
  recordSuccess(id: string): Promise<void>;
  read(ids: readonly string[]): Promise<Array<{ id: string; cooledDownUntil: number | undefined; blockedRecently: number }>>;
}

export interface ProxyPoolOptions {
  /** `http://user:pass@host:port` or `https://…`. */
  urls: readonly string[];
  /** Consecutive blocks after which a proxy is cooled down (rested). */
  restAfterBlocks: number;
  restMs: number;
  now?: () => number;
  shared?: SharedEgressHealth | undefined;
}

interface ProxyState {
  readonly identity: EgressIdentity;
  consecutiveBlocks: number;
  restingUntil: number;
  recentBlocks: number;
  recentSince: number;
}

export const DIRECT_IDENTITY: EgressIdentity = { id: 'direct', label: 'direct', proxy: undefined };

/** `proxy-` and 12 hex digits of the URL's SHA-256: two logins on one proxy host stay apart. */
export function proxyIdentityId(url: string): string {
  return `proxy-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
}

/**
 * The egress identities: each configured proxy, or the direct connection when none is. New
 * sessions take the proxies round robin. A proxy whose responses keep coming back blocked is
 * cooled down (rested) for a while: new sessions skip it and sessions bound to it are replaced,
 * so its share of the work moves to the others. When every proxy rests, the one back soonest is
 * used rather than going direct (which would expose the worker's own address). The direct
 * connection is never cooled down: there is nowhere to move its work.
 */
export class ProxyPool {
  readonly #states: ProxyState[];
  readonly #direct: ProxyState;
  readonly #restAfter: number;
  readonly #restMs: number;
  readonly #now: () => number;
  readonly #shared: SharedEgressHealth | undefined;
  #cursor = 0;

  constructor(options: ProxyPoolOptions) {
    for (const url of options.urls) validateProxyUrl(url);
    const fresh = (identity: EgressIdentity): ProxyState => ({ identity, consecutiveBlocks: 0, restingUntil: 0, recentBlocks: 0, recentSince: 0 });
    this.#states = options.urls.map((url) => fresh({ id: proxyIdentityId(url), label: redactProxy(url), proxy: url }));
    this.#direct = fresh(DIRECT_IDENTITY);
    this.#restAfter = Math.max(1, options.restAfterBlocks);
    this.#restMs = options.restMs;
    this.#now = options.now ?? Date.now;
    this.#shared = options.shared;
  }

  get size(): number {
    return this.#states.length;
  }

  /** Every identity requests may leave from (each has its own share of the upstream rate). */
  identities(): EgressIdentity[] {
    return this.#all().map((s) => s.identity);
  }

  /** The identity of a session's proxy (undefined: direct). */
  identityOf(url: string | undefined): EgressIdentity {
    return this.#state(url)?.identity ?? DIRECT_IDENTITY;
  }

  /** The next proxy to use, or undefined when none is configured (direct connection). */
  next(): string | undefined {
    if (this.#states.length === 0) return undefined;
    const now = this.#now();
    for (let i = 0; i < this.#states.length; i += 1) {
      const state = this.#states[(this.#cursor + i) % this.#states.length] as ProxyState;
      if (state.restingUntil <= now) {
        this.#cursor = (this.#cursor + i + 1) % this.#states.length;
        return state.identity.proxy;
      }
    }
    return this.#states.reduce((a, b) => (b.restingUntil < a.restingUntil ? b : a)).identity.proxy;
  }

  /** True when the proxy is cooled down while another one takes work: its sessions should move. */
  shouldMove(url: string | undefined): boolean {
    const state = this.#state(url);
    if (!state || state === this.#direct) return false;
    const now = this.#now();
    return state.restingUntil > now && this.#states.some((s) => s.restingUntil <= now);
  }

  reportBlocked(url: string | undefined): void {
    const state = this.#state(url) ?? this.#direct;
    const now = this.#now();
    if (now - state.recentSince >= this.#restMs) {
      state.recentSince = now;
      state.recentBlocks = 0;
    }
    state.recentBlocks += 1;
    if (state === this.#direct) return;
    state.consecutiveBlocks += 1;
    if (state.consecutiveBlocks >= this.#restAfter) {
      state.restingUntil = now + this.#restMs;
      state.consecutiveBlocks = 0;
    }
    // Blocks seen by every replica count together; a cool-down decided there applies here too.
    this.#shared
      ?.recordBlock(state.identity.id)
      .then((health) => this.#merge(state, health))
      .catch(() => undefined);
  }

  reportSuccess(url: string | undefined): void {
    const state = this.#state(url);
    if (!state || state === this.#direct) return;
    state.consecutiveBlocks = 0;
    this.#shared?.recordSuccess(state.identity.id).catch(() => undefined);
  }

  /** Reads the cool-downs other replicas decided (no-op without a shared store). */
  async sync(): Promise<void> {
    if (!this.#shared || this.#states.length === 0) return;
    const health = await this.#shared.read(this.#states.map((s) => s.identity.id));
    for (const [i, state] of this.#states.entries()) if (health[i]) this.#merge(state, health[i]);
  }

  /** Each identity, whether it is cooled down and how often it was blocked lately (no credentials). */
  states(): EgressIdentityState[] {
    const now = this.#now();
    return this.#all().map((s) => ({
      id: s.identity.id,
      label: s.identity.label,
      cooledDownUntil: s.restingUntil > now ? s.restingUntil : undefined,
      blockedRecently: now - s.recentSince < this.#restMs ? s.recentBlocks : 0,
    }));
  }

  /** For stats and tests: which proxies rest, and until when. */
  snapshot(): Array<{ url: string; resting: boolean; consecutiveBlocks: number }> {
    const now = this.#now();
    return this.#states.map((s) => ({ url: s.identity.label, resting: s.restingUntil > now, consecutiveBlocks: s.consecutiveBlocks }));
  }

  #all(): ProxyState[] {
    return this.#states.length > 0 ? this.#states : [this.#direct];
  }

  #state(url: string | undefined): ProxyState | undefined {
    return url === undefined ? this.#direct : this.#states.find((s) => s.identity.proxy === url);
  }

  #merge(state: ProxyState, health: { cooledDownUntil: number | undefined; blockedRecently: number }): void {
    if (health.cooledDownUntil !== undefined && health.cooledDownUntil > state.restingUntil) state.restingUntil = health.cooledDownUntil;
    if (health.blockedRecently > state.recentBlocks) {
      state.recentBlocks = health.blockedRecently;
      if (this.#now() - state.recentSince >= this.#restMs) state.recentSince = this.#now();
    }
  }
}

export function validateProxyUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`PROXY_URLS: "${redactProxy(url)}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`PROXY_URLS: only http(s) proxies are supported (got ${parsed.protocol})`);
}

/** Proxy credentials never reach logs. */
export function redactProxy(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid proxy url)';
  }
}
