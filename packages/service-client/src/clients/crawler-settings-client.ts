import { BillingInternalRoutes, type CrawlerSettingsView } from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

/** Billing's internal crawler settings (the admin-set upstream rate), for the crawler-worker. */
export class CrawlerSettingsClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async get(context: { signal?: AbortSignal } = {}): Promise<CrawlerSettingsView> {
    return (await this.#client.route(BillingInternalRoutes.crawlerSettings, {}, { idempotent: true, ...context })).data;
  }
}
