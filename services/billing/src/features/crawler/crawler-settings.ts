import type { CrawlerRate, CrawlerSettingsView } from '@crawl/contracts';
import type { Clock } from '@crawl/modules';
import type { Collection, DocumentStore } from '@crawl/storage';

interface RateSettingDoc {
  _id: string;
  requestsPerMinute: number;
  updatedAt: string;
  updatedBy: string;
}

const SETTINGS_COLLECTION = 'settings';
const UPSTREAM_RATE_ID = 'crawler.upstream-rate';

/**
 * The admin-set upstream rate of the crawler, kept in billing's store (survives restarts). The
 * crawler-workers read it through GET /internal/billing/crawler-settings every RATE_SETTING_REFRESH_MS.
 */
export class CrawlerSettings {
  readonly #settings: Collection<RateSettingDoc>;
  readonly #clock: Clock;
  readonly #defaultRate: number;
  readonly #burst: number;

  constructor(options: { store: DocumentStore; clock: Clock; defaultRate: number; burst: number }) {
    this.#settings = options.store.collection<RateSettingDoc>(SETTINGS_COLLECTION);
    this.#clock = options.clock;
    this.#defaultRate = options.defaultRate;
    this.#burst = options.burst;
  }

  /** What the workers apply: the admin-set rate, or nothing (they then use UPSTREAM_RATE_PER_MINUTE). */
  async current(): Promise<CrawlerSettingsView> {
    const doc = await this.#settings.findOne({ _id: UPSTREAM_RATE_ID });
    return doc ? { requestsPerMinute: doc.requestsPerMinute, updatedAt: doc.updatedAt } : {};
  }

  async view(): Promise<CrawlerRate> {
    const doc = await this.#settings.findOne({ _id: UPSTREAM_RATE_ID });
    return this.#toView(doc);
  }

  async set(requestsPerMinute: number, updatedBy: string): Promise<CrawlerRate> {
    const updatedAt = this.#clock.now().toISOString();
    const doc = await this.#settings.updateOne({ _id: UPSTREAM_RATE_ID }, { $set: { requestsPerMinute, updatedAt, updatedBy } }, { upsert: true });
    return this.#toView(doc);
  }

  #toView(doc: RateSettingDoc | null): CrawlerRate {
    return doc
      ? { requestsPerMinute: doc.requestsPerMinute, burst: this.#burst, source: 'admin', updatedAt: doc.updatedAt }
      : { requestsPerMinute: this.#defaultRate, burst: this.#burst, source: 'default' };
  }
}
