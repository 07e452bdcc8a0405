import type { ModuleContext } from '@crawl/modules';
import type { BillingClient } from '@crawl/service-client';

export type Logger = ModuleContext['logger'];

/** What catalog needs from billing; the real BillingClient or a test double. */
export type BillingPort = Pick<BillingClient, 'reserve' | 'release' | 'settle' | 'consumeExport'>;
