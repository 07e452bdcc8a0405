/**
 * Egress identities: where upstream requests leave from (each proxy of PROXY_URLS, or the direct
 * connection), their blocks and cool-downs (shared by the replicas through a store when there is
 * one), and their state as reported to billing for the admin view.
 */
export { reportEgressIdentities, type EgressReportPort } from './egress-report.ts';
export {
  DIRECT_IDENTITY,
  ProxyPool,
  proxyIdentityId,
  type EgressIdentity,
  type EgressIdentityState,
  type ProxyPoolOptions,
  type SharedEgressHealth,
} from './proxy-pool.ts';
