import type { CrawlerRate, CrawlerSettingsView } from '@crawl/contracts';
import type { Clock } from '@crawl/modules';
import type { DocumentStore } from '@crawl/storage';
import { CrawlerSettingsRepository, type RateSettingDoc } from './crawler-settings-repository.ts';

/**
 * The admin-set upstream rate of the crawler, kept in billing's store (survives restarts). The
 * crawler-workers read it through GET /internal/billing/crawler-settings every RATE_SETTING_REFRESH_MS.
 */
export class CrawlerSettings {
  readonly #settings: CrawlerSettingsRepository;
  readonly #clock: Clock;
  readonly #defaultRate: number;
  readonly #burst: number;

  constructor(options: { store: DocumentStore; clock: Clock; defaultRate: number; burst: number }) {
    this.#settings = new CrawlerSettingsRepository(options.store);
    this.#clock = options.clock;
    this.#defaultRate = options.defaultRate;
    this.#burst = options.burst;
  }

  /** What the workers apply: the admin-set rate, or nothing (they then use UPSTREAM_RATE_PER_MINUTE). */
  async current(): Promise<CrawlerSettingsView> {
    const doc = await this.#settings.findUpstreamRate();
    return doc ? { requestsPerMinute: doc.requestsPerMinute, updatedAt: doc.updatedAt } : {};
  }

  async view(): Promise<CrawlerRate> {
    return this.#toView(await this.#settings.findUpstreamRate());
  }

  async set(requestsPerMinute: number, updatedBy: string): Promise<CrawlerRate> {
    const updatedAt = this.#clock.now().toISOString();
    return this.#toView(await this.#settings.saveUpstreamRate({ requestsPerMinute, updatedAt, updatedBy }));
  }

  #toView(doc: RateSettingDoc | null): CrawlerRate {
    return doc
      ? { requestsPerMinute: doc.requestsPerMinute, burst: this.#burst, source: 'admin', updatedAt: doc.updatedAt }
      : { requestsPerMinute: this.#defaultRate, burst: this.#burst, source: 'default' };
  }
}
