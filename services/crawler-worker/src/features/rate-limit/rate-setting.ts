import type { CrawlerSettingsView } from '@crawl/contracts';
import type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';

/**
 * The upstream rate in force: billing stores the admin-set rate (PUT /admin/crawler/rate), the
 * worker reads it on every `refresh` (every RATE_SETTING_REFRESH_MS) and applies it to its limiter;
 * without an admin-set rate, the configured default. A failed read keeps the rate in force.
 */
export class RateSetting {
  readonly #read: () => Promise<CrawlerSettingsView>;
  readonly #limiter: UpstreamRateLimiter;
  readonly #defaultRate: number;

  constructor(options: { read: () => Promise<CrawlerSettingsView>; limiter: UpstreamRateLimiter; defaultRate: number }) {
    this.#read = options.read;
    this.#limiter = options.limiter;
    this.#defaultRate = options.defaultRate;
  }

  /** Reads billing's setting and applies it; rejects (rate unchanged) when billing cannot be read. */
  async refresh(): Promise<number> {
    // A shared rate that cannot be read (Redis down) leaves the one in force.
    await this.#limiter.sync?.().catch(() => undefined);
    const setting = await this.#read();
    const rate = setting.requestsPerMinute ?? this.#defaultRate;
    if (rate !== this.#limiter.rate()) await this.#limiter.setRate(rate);
    return rate;
  }
}
