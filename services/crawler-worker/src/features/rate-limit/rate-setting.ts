import type { CrawlerRate } from '@crawl/contracts';
import type { Clock } from '@crawl/modules';
import type { Collection, DocumentStore } from '@crawl/storage';
import type { UpstreamRateLimiter } from './upstream-rate-limiter.ts';

interface RateSettingDoc {
  _id: string;
  requestsPerMinute: number;
  updatedAt: string;
  updatedBy: string;
}

const SETTING_ID = 'upstream-rate';

/**
 * The admin-set upstream rate: kept in the worker's store so it survives restarts and reaches the
 * other replicas (each re-reads it every `refreshMs`); applied to the limiter at once.
 */
export class RateSetting {
  readonly #settings: Collection<RateSettingDoc>;
  readonly #limiter: UpstreamRateLimiter;
  readonly #clock: Clock;
  readonly #burst: number;
  #current: RateSettingDoc | null = null;

  constructor(options: { store: DocumentStore; limiter: UpstreamRateLimiter; clock: Clock; defaultRate: number; burst: number }) {
    this.#settings = options.store.collection<RateSettingDoc>('crawler_settings');
    this.#limiter = options.limiter;
    this.#clock = options.clock;
    this.#burst = options.burst;
  }

  /** Reads the stored setting and applies it; a failed read keeps the rate in force. */
  async refresh(): Promise<void> {
    // A shared rate that cannot be read (Redis down) leaves the one in force; never fatal at start.
    await this.#limiter.sync?.().catch(() => undefined);
    const doc = await this.#settings.findOne({ _id: SETTING_ID });
    this.#current = doc;
    // Without a stored setting the limiter keeps its rate: the configured default, or (shared
    // limiter) whatever another replica stored in Redis, which a replica whose own store holds no
    // setting must not overwrite.
    const rate = doc?.requestsPerMinute;
    if (rate !== undefined && rate !== this.#limiter.rate()) await this.#limiter.setRate(rate);
  }

  async set(requestsPerMinute: number, updatedBy: string): Promise<CrawlerRate> {
    const updatedAt = this.#clock.now().toISOString();
    this.#current = await this.#settings.updateOne({ _id: SETTING_ID }, { $set: { requestsPerMinute, updatedAt, updatedBy } }, { upsert: true });
    await this.#limiter.setRate(requestsPerMinute);
    return this.view();
  }

  view(): CrawlerRate {
    const current = this.#current;
    return current
      ? { requestsPerMinute: this.#limiter.rate(), burst: this.#burst, source: 'admin', updatedAt: current.updatedAt }
      : { requestsPerMinute: this.#limiter.rate(), burst: this.#burst, source: 'default' };
  }
}
