import { CatalogInternalRoutes, type RecordAuditBody } from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

/** Records an audit event in catalog's log from another service. */
export class AuditClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async record(event: RecordAuditBody, context: { signal?: AbortSignal } = {}): Promise<void> {
    await this.#client.route(CatalogInternalRoutes.recordAudit, { body: event }, { requestId: event.requestId, ...context });
  }
}
