/**
 * What domain code reports, as plain calls: services depend on these interfaces only, never on
 * the metrics library, and tests pass `noMetrics`. Every label value is bounded by the
 * implementation (known values or a capped set); never pass an organization, job or user id.
 */

export interface JobMetrics {
  jobCreated(type: string): void;
  /** `seconds` from creation to the terminal state. */
  jobFinished(type: string, status: string, seconds: number | undefined): void;
}

export interface TargetMetrics {
  /** One target's final report: `success` or `failed` with its reason (blocked, not_found…). */
  targetFinished(type: string, outcome: string, reason: string | undefined): void;
}

export interface PageCacheMetrics {
  /** A lookup in the shared page cache (`config.maxAge`): answered from it (hit) or not (miss), by job type. */
  pageCacheLookup(type: string, hit: boolean): void;
}

export interface UpstreamRequest {
  /** The marketplace's domain (amazon.de); `direct` or a host the caller names. */
  domain: string;
  /** The HTTP status, or the kind of failure when there was no answer (timeout, network). */
  status: number | string;
  bytes: number;
  seconds: number;
  /** The egress identity's stable id (a hash for a proxy, `direct`); never a proxy URL. */
  egress: string;
}

export interface UpstreamMetrics {
  upstreamRequest(request: UpstreamRequest): void;
  upstreamRetry(domain: string, reason: string): void;
  upstreamBlocked(domain: string, egress: string): void;
}

export interface ParserMetrics {
  /** `kind`: `search` or `product`. */
  pageParsed(kind: string, seconds: number, ok: boolean): void;
  /** A field the parser found no value for (a drop in coverage shows a layout change first). */
  fieldMissing(kind: string, field: string): void;
}

export interface CreditMetrics {
  creditsReserved(credits: number): void;
  creditsCaptured(credits: number): void;
  creditsRefunded(credits: number): void;
}

export interface WebhookMetrics {
  /** `outcome`: delivered, failed (will retry), exhausted (no tries left), skipped. */
  webhookAttempt(outcome: string, lagSeconds: number | undefined): void;
}

export interface QueueMetrics {
  /** Time a task waited between being added and a worker starting it. */
  taskWaited(queue: string, seconds: number): void;
}

export type CrawlMetrics = JobMetrics & TargetMetrics & PageCacheMetrics & UpstreamMetrics & ParserMetrics & CreditMetrics & WebhookMetrics & QueueMetrics;

const nothing = (): void => undefined;

/** Records nothing: the default where a caller was given no metrics (unit tests). */
export const noMetrics: CrawlMetrics = {
  jobCreated: nothing,
  jobFinished: nothing,
  targetFinished: nothing,
  pageCacheLookup: nothing,
  upstreamRequest: nothing,
  upstreamRetry: nothing,
  upstreamBlocked: nothing,
  pageParsed: nothing,
  fieldMissing: nothing,
  creditsReserved: nothing,
  creditsCaptured: nothing,
  creditsRefunded: nothing,
  webhookAttempt: nothing,
  taskWaited: nothing,
};
