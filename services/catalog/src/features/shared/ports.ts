import type { JobConfig, JobType, ObservedChange, ResultRecord } from '@crawl/contracts';
import type { Logger as ProcessLogger } from '@crawl/logging';
import type { BillingClient } from '@crawl/service-client';

/** The one logger type of the service: the process logger every module context carries. */
export type Logger = ProcessLogger;

/** What catalog needs from billing; the real BillingClient or a test double. */
export type BillingPort = Pick<BillingClient, 'reserve' | 'release' | 'settle' | 'consumeExport' | 'usage'>;

/** A target's stored records, as the report path hands them to what follows them (history). */
export interface TargetResults {
  organizationId: string;
  jobId: string;
  jobType: JobType;
  /** What the records are read with: the storefront and the delivery postal code the job asked for. */
  config: Pick<JobConfig, 'domain' | 'deliveryZip'>;
  targetIndex: number;
  /** As stored: the record at index `seq` is result row `<jobId>:<targetIndex>:<seq>`. */
  records: readonly ResultRecord[];
  /** When the report was applied. */
  at: string;
}

/**
 * Told of every successful target's records after they are stored and before the target is
 * moved on (a failure fails the report, which the worker sends again). Must be idempotent: the
 * same report can arrive twice. @returns the tracked values the records changed.
 */
export interface TargetResultsObserver {
  observe(results: TargetResults): Promise<readonly ObservedChange[]>;
}
