import { PageCacheInternalRoutes, type ResultRecord } from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

const R = PageCacheInternalRoutes;

/** The worker's calls to the shared page cache catalog keeps (docs/adr/0023-shared-page-cache.md). */
export class PageCacheClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async lookup(key: string, maxAgeMs: number): Promise<{ records: ResultRecord[]; fetchedAt: string } | undefined> {
    const { data } = await this.#client.route(R.lookupPage, { body: { key, maxAgeMs } }, { idempotent: true, timeoutMs: 5_000 });
    return data.hit && data.records !== undefined && data.fetchedAt !== undefined ? { records: data.records, fetchedAt: data.fetchedAt } : undefined;
  }

  async store(key: string, records: readonly ResultRecord[], fetchedAt: string): Promise<void> {
    await this.#client.route(R.storePage, { body: { key, records: [...records], fetchedAt } }, { idempotent: true, timeoutMs: 30_000 });
  }
}
