export interface ProxyPoolOptions {
  /** `http://user:pass@host:port` or `https://…`. */
  urls: readonly string[];
  /** Consecutive blocks after which a proxy is rested. */
  restAfterBlocks: number;
  restMs: number;
  now?: () => number;
}

interface ProxyState {
  readonly url: string;
  consecutiveBlocks: number;
  restingUntil: number;
}

/**
 * Rotates the configured proxies round robin. A proxy whose responses keep coming back blocked is
 * rested for a while; when every proxy rests, the one back soonest is used rather than going
 * direct (which would expose the worker's own address).
 */
export class ProxyPool {
  readonly #states: ProxyState[];
  readonly #restAfter: number;
  readonly #restMs: number;
  readonly #now: () => number;
  #cursor = 0;

  constructor(options: ProxyPoolOptions) {
    for (const url of options.urls) validateProxyUrl(url);
    this.#states = options.urls.map((url) => ({ url, consecutiveBlocks: 0, restingUntil: 0 }));
    this.#restAfter = Math.max(1, options.restAfterBlocks);
    this.#restMs = options.restMs;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#states.length;
  }

  /** The next proxy to use, or undefined when none is configured (direct connection). */
  next(): string | undefined {
    if (this.#states.length === 0) return undefined;
    const now = this.#now();
    for (let i = 0; i < this.#states.length; i += 1) {
      const state = this.#states[(this.#cursor + i) % this.#states.length] as ProxyState;
      if (state.restingUntil <= now) {
        this.#cursor = (this.#cursor + i + 1) % this.#states.length;
        return state.url;
      }
    }
    return this.#states.reduce((a, b) => (b.restingUntil < a.restingUntil ? b : a)).url;
  }

  reportBlocked(url: string): void {
    const state = this.#states.find((s) => s.url === url);
    if (!state) return;
    state.consecutiveBlocks += 1;
    if (state.consecutiveBlocks >= this.#restAfter) {
      state.restingUntil = this.#now() + this.#restMs;
      state.consecutiveBlocks = 0;
    }
  }

  reportSuccess(url: string): void {
    const state = this.#states.find((s) => s.url === url);
    if (state) state.consecutiveBlocks = 0;
  }

  /** For stats and tests: which proxies rest, and until when. */
  snapshot(): Array<{ url: string; resting: boolean; consecutiveBlocks: number }> {
    const now = this.#now();
    return this.#states.map((s) => ({ url: redactProxy(s.url), resting: s.restingUntil > now, consecutiveBlocks: s.consecutiveBlocks }));
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
