export { CrawlClient, type CrawlClientOptions } from './crawl-client.ts';
export { CrawlApiError, CrawlConnectionError, type CrawlErrorCode, isCrawlApiError } from './errors.ts';
export type { CallOptions, RetryEvent, TransportOptions, UploadBody } from './http/transport.ts';
export type { UploadTargetListOptions } from './resources/target-lists-api.ts';
export { parseRetryAfter, type RetryOptions } from './http/retry-policy.ts';
export type { ExportDownload } from './jobs/job-export.ts';
export { type JobEvent, JobEventsInterruptedError, type JobEventsOptions, JobEventsUnavailableError } from './jobs/job-events.ts';
export type { JobUpdate, WaitOptions } from './jobs/wait-for-job.ts';
export type { CursorPage, ListPage } from './paging.ts';
export type { AdminUsage, CrawlerRate, LedgerEntry, QueueStats, ReconcileReport } from './resources/admin-api.ts';
export type { Handoff, Me } from './resources/auth-api.ts';
export type { CheckoutResult, ReferralCode } from './resources/billing-api.ts';
export type { HistoryField, HistoryTime, KeywordRanksOptions, ProductHistoryOptions } from './resources/history-api.ts';
export type { ResultItem } from './resources/jobs-api.ts';
export type { JobRecords, RecordOf } from './jobs/job-records.ts';
export { coverageInWords } from './jobs/coverage-words.ts';
/** A result's field by a name given at run time (a column): records are open objects. */
export { recordField } from '@crawl/contracts';
/** The job types and their credit prices (docs/catalog.md, "Job types and prices"). */
export { CREDITS_PER_TARGET, JOB_TYPES } from '@crawl/contracts';
/** The fields history tracks of a product and of a search result (docs/history.md). */
export { PRODUCT_TRACKED_FIELDS, RANK_TRACKED_FIELDS } from '@crawl/contracts';
/** What monitors' rules may say (docs/monitors.md): the operations, the fields each reads, the values they take, the limits. */
export {
  DEFAULT_MONITOR_COOLDOWN,
  MONITOR_LIMITS,
  MONITOR_OP_FIELDS,
  MONITOR_OP_VALUES,
  MONITOR_RULE_OPS,
  MONITOR_WATCHABLE_FIELDS,
  monitorRunCredits,
} from '@crawl/contracts';
export { parseRule, RULE_TEXT_FORM, RuleSyntaxError, ruleText } from './monitors/rule-text.ts';
export { changeInWords, fieldInWords, ruleInWords, trackedValueInWords } from './monitors/rule-words.ts';
export type { RouteData, RouteInput, RouteOutput } from './route-types.ts';
export * from './types.ts';
export { chargesOf, normalizeJob, normalizeSession, progressOf } from './variants.ts';
