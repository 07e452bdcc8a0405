import type { CrawlerIdentitiesBody } from '@crawl/contracts';
import type { CrawlerSettingsClient } from '@crawl/service-client';
import type { EgressIdentityState } from './proxy-pool.ts';

/** Where the identities go: billing's internal route, through its typed client. */
export type EgressReportPort = Pick<CrawlerSettingsClient, 'reportIdentities'>;

/**
 * Sends the worker's egress identities to billing, which shows them in GET /admin/crawler/rate.
 * Labels carry no credentials (the pool masks them); cool-down ends go as timestamps.
 */
export async function reportEgressIdentities(billing: EgressReportPort, states: readonly EgressIdentityState[]): Promise<void> {
  const body: CrawlerIdentitiesBody = {
    identities: states.map((state) => ({
      id: state.id,
      label: state.label,
      blockedRecently: state.blockedRecently,
      ...(state.cooledDownUntil === undefined ? {} : { cooledDownUntil: new Date(state.cooledDownUntil).toISOString() }),
    })),
  };
  await billing.reportIdentities(body);
}
