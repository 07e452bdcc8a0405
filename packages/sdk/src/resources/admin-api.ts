import { type AdminCreditsBody, type AdminLedgerQuery, type AdminLimitsBody, BillingRoutes, type SetCrawlerRateBody } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem } from '../paging.ts';
import type { RouteData, RouteOutput } from '../route-types.ts';

export type AdminCreditsResult = RouteData<typeof BillingRoutes.adminCredits>;
export type AdminLimitsResult = RouteData<typeof BillingRoutes.adminLimits>;
export type AdminUsage = RouteData<typeof BillingRoutes.adminUsage>;
export type LedgerPage = RouteOutput<typeof BillingRoutes.adminLedger>;
export type LedgerEntry = LedgerPage['data'][number];
export type ReconcileReport = RouteData<typeof BillingRoutes.adminReconcile>;
export type CrawlerRate = RouteData<typeof BillingRoutes.getCrawlerRate>;
export type QueueStats = RouteData<typeof BillingRoutes.queueStats>;

/** Operator routes: an admin token is needed (granted with `crawl-server admin grant EMAIL`). */
export class AdminApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async grantCredits(organizationId: string, body: AdminCreditsBody, options?: CallOptions): Promise<AdminCreditsResult> {
    return (await this.transport.call(BillingRoutes.adminCredits, { params: { organizationId }, body }, options)).data;
  }

  async setLimits(organizationId: string, body: AdminLimitsBody, options?: CallOptions): Promise<AdminLimitsResult> {
    return (await this.transport.call(BillingRoutes.adminLimits, { params: { organizationId }, body }, options)).data;
  }

  async usage(organizationId: string, options?: CallOptions): Promise<AdminUsage> {
    return (await this.transport.call(BillingRoutes.adminUsage, { params: { organizationId } }, options)).data;
  }

  async ledger(organizationId: string, query: AdminLedgerQuery = {}, options?: CallOptions): Promise<LedgerPage> {
    return this.transport.call(BillingRoutes.adminLedger, { params: { organizationId }, query }, options);
  }

  iterateLedger(organizationId: string, query: Omit<AdminLedgerQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<LedgerEntry, void, undefined> {
    return eachItem((offset) => this.ledger(organizationId, { ...query, offset } as AdminLedgerQuery, options));
  }

  async reconcile(options?: CallOptions): Promise<ReconcileReport> {
    return (await this.transport.call(BillingRoutes.adminReconcile, {}, options)).data;
  }

  async crawlerRate(options?: CallOptions): Promise<CrawlerRate> {
    return (await this.transport.call(BillingRoutes.getCrawlerRate, {}, options)).data;
  }

  async setCrawlerRate(body: SetCrawlerRateBody, options?: CallOptions): Promise<CrawlerRate> {
    return (await this.transport.call(BillingRoutes.setCrawlerRate, { body }, options)).data;
  }

  async queueStats(options?: CallOptions): Promise<QueueStats> {
    return (await this.transport.call(BillingRoutes.queueStats, {}, options)).data;
  }
}
