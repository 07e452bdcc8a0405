import type { Collection, DocumentStore } from '@crawl/storage';

export interface RateSettingDoc {
  _id: string;
  requestsPerMinute: number;
  updatedAt: string;
  updatedBy: string;
}

/** The egress identities as a crawler-worker last reported them. */
export interface EgressIdentitiesDoc {
  _id: string;
  identities: Array<{ id: string; label: string; cooledDownUntil?: string; blockedRecently: number }>;
  reportedAt: string;
}

const SETTINGS_COLLECTION = 'settings';
const UPSTREAM_RATE_ID = 'crawler.upstream-rate';
const EGRESS_IDENTITIES_ID = 'crawler.egress-identities';

/** Storage of billing's crawler settings: one document per setting in `settings`. */
export class CrawlerSettingsRepository {
  readonly #settings: Collection<RateSettingDoc>;
  readonly #identities: Collection<EgressIdentitiesDoc>;

  constructor(store: DocumentStore) {
    this.#settings = store.collection<RateSettingDoc>(SETTINGS_COLLECTION);
    this.#identities = store.collection<EgressIdentitiesDoc>(SETTINGS_COLLECTION);
  }

  findUpstreamRate(): Promise<RateSettingDoc | null> {
    return this.#settings.findOne({ _id: UPSTREAM_RATE_ID });
  }

  /** Creates or replaces the admin-set rate. @returns the stored setting. */
  async saveUpstreamRate(setting: Omit<RateSettingDoc, '_id'>): Promise<RateSettingDoc> {
    const saved = await this.#settings.updateOne({ _id: UPSTREAM_RATE_ID }, { $set: { ...setting } }, { upsert: true });
    return saved ?? { _id: UPSTREAM_RATE_ID, ...setting };
  }

  findEgressIdentities(): Promise<EgressIdentitiesDoc | null> {
    return this.#identities.findOne({ _id: EGRESS_IDENTITIES_ID });
  }

  /** Replaces the last report (every replica reports the same shared state; the latest wins). */
  async saveEgressIdentities(report: Omit<EgressIdentitiesDoc, '_id'>): Promise<void> {
    await this.#identities.updateOne({ _id: EGRESS_IDENTITIES_ID }, { $set: { ...report } }, { upsert: true });
  }
}
