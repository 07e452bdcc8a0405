import type { JobMetrics, WebhookMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import type { BillingPort, Logger } from './ports.ts';

/**
 * What every catalog service is built with, made once by the composition (catalog.ts): each
 * service takes it first, then only the parts that are its own (repositories, the services it
 * calls, its settings).
 */
export interface CatalogResources {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: JobMetrics & WebhookMetrics;
  /** Built on first use: the billing client needs BILLING_URL only when billing runs elsewhere. */
  readonly billing: () => BillingPort;
}
