import { BillingPaths, type CrawlerIdentitiesBody } from '@crawl/contracts';
import type { ServiceClient } from '@crawl/service-client';
import type { EgressIdentityState } from './proxy-pool.ts';

/**
 * Sends the worker's egress identities to billing, which shows them in GET /admin/crawler/rate.
 * Labels carry no credentials (the pool masks them); cool-down ends go as timestamps.
 */
export async function reportEgressIdentities(billing: ServiceClient, states: readonly EgressIdentityState[]): Promise<void> {
  const body: CrawlerIdentitiesBody = {
    identities: states.map((state) => ({
      id: state.id,
      label: state.label,
      blockedRecently: state.blockedRecently,
      ...(state.cooledDownUntil === undefined ? {} : { cooledDownUntil: new Date(state.cooledDownUntil).toISOString() }),
    })),
  };
  await billing.call({ method: 'PUT', path: BillingPaths.crawlerIdentities, body, idempotent: true });
}
