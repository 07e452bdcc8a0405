import type { CrawlerEgressIdentity, CrawlerIdentitiesBody, CrawlerRate, CrawlerSettingsView } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { BillingResources } from '../shared/index.ts';
import type { CrawlerSettingsRepository, EgressIdentitiesDoc, RateSettingDoc } from './crawler-settings-repository.ts';

export interface CrawlerSettingsOptions {
  repository: CrawlerSettingsRepository;
  /** UPSTREAM_RATE_PER_MINUTE: the rate until an admin sets one. */
  defaultRate: number;
  burst: number;
}

/**
 * The admin-set upstream rate of the crawler, kept in billing's store (survives restarts). The
 * rate is the budget of each egress identity (direct connection or proxy). The crawler-workers
 * read it through GET /internal/billing/crawler-settings every RATE_SETTING_REFRESH_MS and, in the
 * same cycle, report their identities (PUT /internal/billing/crawler-identities) for the admin view.
 */
export class CrawlerSettings {
  readonly #settings: CrawlerSettingsRepository;
  readonly #clock: Clock;
  readonly #defaultRate: number;
  readonly #burst: number;

  constructor(resources: BillingResources, options: CrawlerSettingsOptions) {
    this.#settings = options.repository;
    this.#clock = resources.clock;
    this.#defaultRate = options.defaultRate;
    this.#burst = options.burst;
  }

  /** What the workers apply: the admin-set rate, or nothing (they then use UPSTREAM_RATE_PER_MINUTE). */
  async current(): Promise<CrawlerSettingsView> {
    const doc = await this.#settings.findUpstreamRate();
    return doc ? { requestsPerMinute: doc.requestsPerMinute, updatedAt: doc.updatedAt } : {};
  }

  async view(): Promise<CrawlerRate> {
    const [rate, identities] = await Promise.all([this.#settings.findUpstreamRate(), this.#settings.findEgressIdentities()]);
    return this.#toView(rate, identities);
  }

  async set(requestsPerMinute: number, updatedBy: string): Promise<CrawlerRate> {
    const updatedAt = this.#clock.now().toISOString();
    const saved = await this.#settings.saveUpstreamRate({ requestsPerMinute, updatedAt, updatedBy });
    return this.#toView(saved, await this.#settings.findEgressIdentities());
  }

  /** Keeps a worker's report of its egress identities (labels come masked; no credentials). */
  async reportIdentities(report: CrawlerIdentitiesBody): Promise<void> {
    await this.#settings.saveEgressIdentities({ identities: report.identities, reportedAt: this.#clock.now().toISOString() });
  }

  #toView(doc: RateSettingDoc | null, reported: EgressIdentitiesDoc | null): CrawlerRate {
    const rate = doc
      ? { requestsPerMinute: doc.requestsPerMinute, burst: this.#burst, source: 'admin' as const, updatedAt: doc.updatedAt }
      : { requestsPerMinute: this.#defaultRate, burst: this.#burst, source: 'default' as const };
    const now = this.#clock.now().getTime();
    const identities: CrawlerEgressIdentity[] = (reported?.identities ?? []).map((identity) => {
      const cooled = identity.cooledDownUntil !== undefined && Date.parse(identity.cooledDownUntil) > now;
      return {
        id: identity.id,
        label: identity.label,
        ratePerMinute: rate.requestsPerMinute,
        cooledDownUntil: cooled ? (identity.cooledDownUntil as string) : null,
        blockedRecently: identity.blockedRecently,
      };
    });
    const working = identities.filter((identity) => identity.cooledDownUntil === null).length;
    // Until a worker reported, one identity is assumed (the direct connection); when every proxy
    // is cooled down the workers still use the one back soonest.
    const capacityPerMinute = rate.requestsPerMinute * Math.max(1, working);
    return {
      ...rate,
      perIdentity: true,
      capacityPerMinute,
      identities,
      ...(reported ? { identitiesReportedAt: reported.reportedAt } : {}),
    };
  }
}
