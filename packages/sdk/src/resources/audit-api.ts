import { type AuditEvent, type AuditQuery, CatalogRoutes } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';

export class AuditApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** One page of the organization's audit events, newest first. */
  async list(query: AuditQuery = {}, options?: CallOptions): Promise<Required<ListPage<AuditEvent>>> {
    return this.transport.call(CatalogRoutes.listAudit, { query }, options);
  }

  iterate(query: Omit<AuditQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<AuditEvent, void, undefined> {
    return eachItem((offset) => this.list({ limit: 100, ...query, offset }, options));
  }
}
