import { BillingInternalRoutes, type CrawlerIdentitiesBody, type CrawlerSettingsView } from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

/**
 * Billing's internal crawler settings, for the crawler-worker: the admin-set upstream rate it
 * reads, and the state of its egress identities it reports for the admin view.
 */
export class CrawlerSettingsClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async get(context: { signal?: AbortSignal } = {}): Promise<CrawlerSettingsView> {
    return (await this.#client.route(BillingInternalRoutes.crawlerSettings, {}, { idempotent: true, ...context })).data;
  }

  /**
   * Replaces the identities billing shows for the workers (the latest report wins, so a repeat is
   * harmless). @returns how many identities billing now holds.
   */
  async reportIdentities(body: CrawlerIdentitiesBody, context: { signal?: AbortSignal } = {}): Promise<number> {
    return (await this.#client.route(BillingInternalRoutes.reportCrawlerIdentities, { body }, { idempotent: true, ...context })).data.identities;
  }
}
