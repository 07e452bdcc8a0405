import type { CreditMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import type { ModuleContext } from '@crawl/runtime';
import type { DocumentStore } from '@crawl/storage';

/** The one logger type of the service: the module's logger, or a silent one in tests. */
export type Logger = Pick<ModuleContext['logger'], 'info' | 'warn' | 'error'>;

/**
 * What every billing service is built over. A service's own options add only what differs: its
 * repository, the services it calls and its settings.
 */
export interface BillingResources {
  readonly store: DocumentStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Credits reserved, captured and refunded. */
  readonly metrics: CreditMetrics;
}
