import { reportEgressIdentities, type EgressReportPort, type ProxyPool } from '../features/egress/index.ts';
import type { RateSetting } from '../features/rate-limit/index.ts';

export interface BillingRefreshNeeds {
  /** The upstream rate in force, re-read from billing's admin-set setting. */
  rate: Pick<RateSetting, 'refresh'>;
  proxies: Pick<ProxyPool, 'sync' | 'states'>;
  billing: EgressReportPort;
  logger: { warn(obj: object, msg?: string): void };
}

/**
 * What a worker exchanges with billing at start and every RATE_SETTING_REFRESH_MS: the admin-set
 * rate applied to its limiter; then the cool-downs other replicas decided, and its egress
 * identities reported for billing's admin view. Never rejects: a rate that cannot be read keeps
 * the one in force, a report that fails is sent again at the next refresh; both are logged.
 */
export async function refreshWithBilling(needs: BillingRefreshNeeds): Promise<void> {
  const { rate, proxies, billing, logger } = needs;
  await rate
    .refresh()
    .catch((error: unknown) => logger.warn({ err: error }, 'reading the upstream rate setting from billing failed; keeping the rate in force'));
  await proxies
    .sync()
    .then(() => reportEgressIdentities(billing, proxies.states()))
    .catch((error: unknown) => logger.warn({ err: error }, 'sharing the egress identities failed; the next refresh tries again'));
}
