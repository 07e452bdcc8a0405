import type { Logger as ProcessLogger } from '@crawl/logging';
import type { BillingClient } from '@crawl/service-client';

/** The one logger type of the service: the process logger every module context carries. */
export type Logger = ProcessLogger;

/** What catalog needs from billing; the real BillingClient or a test double. */
export type BillingPort = Pick<BillingClient, 'reserve' | 'release' | 'settle' | 'consumeExport'>;
