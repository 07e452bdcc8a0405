import type { Collection, DocumentStore } from '@crawl/storage';

export interface RateSettingDoc {
  _id: string;
  requestsPerMinute: number;
  updatedAt: string;
  updatedBy: string;
}

const SETTINGS_COLLECTION = 'settings';
const UPSTREAM_RATE_ID = 'crawler.upstream-rate';

/** Storage of billing's crawler settings: one document per setting in `settings`. */
export class CrawlerSettingsRepository {
  readonly #settings: Collection<RateSettingDoc>;

  constructor(store: DocumentStore) {
    this.#settings = store.collection<RateSettingDoc>(SETTINGS_COLLECTION);
  }

  findUpstreamRate(): Promise<RateSettingDoc | null> {
    return this.#settings.findOne({ _id: UPSTREAM_RATE_ID });
  }

  /** Creates or replaces the admin-set rate. @returns the stored setting. */
  async saveUpstreamRate(setting: Omit<RateSettingDoc, '_id'>): Promise<RateSettingDoc> {
    const saved = await this.#settings.updateOne({ _id: UPSTREAM_RATE_ID }, { $set: { ...setting } }, { upsert: true });
    return saved ?? { _id: UPSTREAM_RATE_ID, ...setting };
  }
}
