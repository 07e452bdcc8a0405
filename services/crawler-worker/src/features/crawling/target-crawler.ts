import { CATALOG_LIMITS, type CrawlTask, type ReportTargetBody, type TargetFailureReason } from '@crawl/contracts';
import { isAppError } from '@crawl/errors';
import { RetryLaterError } from '@crawl/queue';
import {
  isSearchSort,
  marketplaceForOrigin,
  SEARCH_SORTS,
  storefrontLanguage,
  type MarketplaceDomain,
  type SearchItem,
  type SearchPage,
} from '@crawl/marketplace';
import { noMetrics, type TargetMetrics } from '@crawl/metrics';
import type { CatalogWorkerClient } from '@crawl/service-client';
import { deliveryLocationKey, setDeliveryLocation } from '../fetching/delivery-location.ts';
import type { SessionPool } from '../fetching/session-pool.ts';
import type { PageOutcome, SessionHolder, UpstreamClient } from '../fetching/upstream-client.ts';
import { inlinePageParser, type PageParser } from '../parsing/page-parser.ts';
import { isInfrastructureError } from './infrastructure-errors.ts';
import { InfrastructureRetry, type InfrastructureRetryOptions } from './infrastructure-retry.ts';
import { productUrl, resolveMarketplace, searchUrl, type Storefront } from './marketplace-origin.ts';

export type CatalogPort = Pick<CatalogWorkerClient, 'claimTarget' | 'reportTarget'>;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface TargetCrawlerOptions {
  catalog: CatalogPort;
  upstream: Pick<UpstreamClient, 'getPage'>;
  sessions: Pick<SessionPool, 'take'>;
  /** Where extraction runs (a pool of worker threads in the service); default: this thread. */
  parser?: PageParser | undefined;
  /** The configured marketplace origin (MARKETPLACE_BASE_URL or the simulator's). */
  baseUrl: () => string;
  logger?: Logger | undefined;
  /** Aborted when the worker stops: in-flight targets are handed back (catalog re-enqueues them). */
  signal?: AbortSignal | undefined;
  /** Backoff for catalog/database/Redis outages (which never spend a crawl attempt). */
  infrastructureRetry?: Partial<InfrastructureRetryOptions> | undefined;
  /** Targets by outcome and reason; default none. */
  metrics?: TargetMetrics | undefined;
}

/** Which try of its task this is, as the queue says (the attempts travel with the task). */
export interface TaskAttempt {
  attempt: number;
  maxAttempts: number;
}

export const INFRASTRUCTURE_RETRY_DEFAULTS = { baseDelayMs: 1_000, maxDelayMs: 30_000, windowMs: 300_000 } as const;

/** Search result pages per keyword: `config.pages`, default 1, at most this (each page is billed). */
export const MAX_SEARCH_PAGES = CATALOG_LIMITS.maxSearchPages;
const MESSAGE_MAX = 1000;

export function searchPagesOf(config: Record<string, unknown>): number {
  const pages = config.pages;
  if (typeof pages !== 'number' || !Number.isInteger(pages) || pages < 1) return 1;
  return Math.min(pages, MAX_SEARCH_PAGES);
}

/**
 * The job's shopper options as the storefront takes them in the URL: the language from its
 * switcher (`language=en_GB`, only one it offers) and, for search pages, the sort (`s=`). The
 * delivery location is no URL option: it is set on the crawl session (see `setDeliveryLocation`).
 */
export function shopperQuery(store: Storefront, config: Record<string, unknown>, kind: 'search' | 'details'): Record<string, string> {
  const real = marketplaceForOrigin(store.origin);
  const domain = (store.domain ?? real?.domain ?? 'amazon.com') as MarketplaceDomain;
  const query: Record<string, string> = {};
  const language = typeof config.lang === 'string' ? storefrontLanguage(domain, config.lang) : undefined;
  if (language !== undefined) query.language = language;
  if (kind === 'search' && isSearchSort(config.sort) && config.sort !== 'featured') query.s = SEARCH_SORTS[config.sort];
  return query;
}

function failed(reason: TargetFailureReason, message: string, requests: number): ReportTargetBody {
  return { status: 'failed', reason, message: message.slice(0, MESSAGE_MAX), items: [], requests };
}

/** A delivery with no attempt information is never treated as the last one. */
const NOT_THE_LAST: TaskAttempt = { attempt: 1, maxAttempts: Number.POSITIVE_INFINITY };

/** Marker for "the job was cancelled while we worked": nothing is reported. */
const CANCELLED = Symbol('cancelled');

/**
 * One target end to end: claim it from catalog, fetch and parse its page(s), report the items or
 * the failure reason. Catalog stores the results (replacing earlier ones of the same target),
 * moves the job to its terminal state and settles credits.
 */
export class TargetCrawler {
  readonly #options: TargetCrawlerOptions;
  /** Reports that could not be delivered; a redelivered task sends them instead of crawling again. */
  readonly #undelivered = new Map<string, ReportTargetBody>();
  readonly #retry: InfrastructureRetry;
  readonly #parser: PageParser;

  constructor(options: TargetCrawlerOptions) {
    this.#options = options;
    this.#parser = options.parser ?? inlinePageParser;
    this.#retry = new InfrastructureRetry({ ...INFRASTRUCTURE_RETRY_DEFAULTS, now: Date.now, ...options.infrastructureRetry });
  }

  /**
   * One delivery of a task. An outage of catalog, its database or Redis never spends an attempt:
   * it throws RetryLaterError (capped exponential backoff), and a finished crawl keeps its report
   * and retries only the delivery, for as long as it takes. When the last attempt fails for
   * another reason, the target is reported failed here, through the same retried delivery.
   */
  async crawl(task: CrawlTask, attempt: TaskAttempt = NOT_THE_LAST): Promise<void> {
    const key = `${task.jobId}-${task.targetIndex}`;
    try {
      await this.#crawlOnce(task, key);
      this.#retry.succeeded(key);
    } catch (error) {
      if (this.#options.signal?.aborted) throw error;
      const delivering = this.#undelivered.has(key);
      // 409 on a report: catalog is applying another report of this target; ours waits its turn.
      const contended = delivering && isAppError(error) && error.statusCode === 409;
      if (isInfrastructureError(error) || contended) {
        const delayMs = this.#retry.delayFor(key, delivering);
        if (delayMs !== undefined) {
          this.#options.logger?.warn(
            { err: error, jobId: task.jobId, targetIndex: task.targetIndex, delayMs, reportPending: delivering },
            'catalog or its backends unavailable; trying again later without spending a crawl attempt',
          );
          throw new RetryLaterError(`infrastructure unavailable: ${(error as Error).message}`, delayMs);
        }
      }
      if (delivering || attempt.attempt < attempt.maxAttempts) throw error;
      // The last attempt failed: the target still has to end, and that report must arrive too.
      this.#keepUndelivered(key, failed('upstream_error', `crawl task failed: ${(error as Error).message}`, 0));
      await this.crawl(task, attempt);
    }
  }

  #keepUndelivered(key: string, report: ReportTargetBody): void {
    if (this.#undelivered.size > 1000) this.#undelivered.delete(this.#undelivered.keys().next().value as string);
    this.#undelivered.set(key, report);
  }

  async #crawlOnce(task: CrawlTask, key: string): Promise<void> {
    const { catalog } = this.#options;
    let report = this.#undelivered.get(key);
    if (!report) {
      let claim;
      try {
        claim = await catalog.claimTarget(task.jobId, task.targetIndex);
      } catch (error) {
        // The job or target no longer exists: nothing to crawl and nobody to report to.
        if (isAppError(error) && error.statusCode === 404) return;
        throw error;
      }
      if (!claim.proceed) return;
      const outcome = await this.#work(task);
      if (outcome === CANCELLED) return;
      report = outcome;
    }
    try {
      await catalog.reportTarget(task.jobId, task.targetIndex, report);
      this.#undelivered.delete(key);
    } catch (error) {
      // The job is gone: nobody to report to.
      if (isAppError(error) && error.statusCode === 404) {
        this.#undelivered.delete(key);
        return;
      }
      this.#keepUndelivered(key, report);
      throw error;
    }
    (this.#options.metrics ?? noMetrics).targetFinished(task.type, report.status, report.reason);
    this.#options.logger?.info(
      {
        orgId: task.organizationId,
        jobId: task.jobId,
        targetIndex: task.targetIndex,
        status: report.status,
        reason: report.reason,
        items: report.items.length,
        requests: report.requests,
      },
      'target crawled',
    );
  }

  /**
   * The queue gave up on a task without `crawl` reporting it (an unrecoverable error): the target
   * still has to end. A report that cannot be delivered stays kept for a redelivery.
   */
  async giveUp(task: CrawlTask, error: Error): Promise<void> {
    const key = `${task.jobId}-${task.targetIndex}`;
    const report = this.#undelivered.get(key) ?? failed('upstream_error', `crawl task failed: ${error.message}`, 0);
    try {
      await this.#options.catalog.reportTarget(task.jobId, task.targetIndex, report);
      this.#undelivered.delete(key);
    } catch (deliveryError) {
      this.#keepUndelivered(key, report);
      throw deliveryError;
    }
  }

  async #work(task: CrawlTask): Promise<ReportTargetBody | typeof CANCELLED> {
    const market = resolveMarketplace(this.#options.baseUrl(), task.config);
    if (!market.ok) return failed('invalid_target', market.message, 0);
    const lang = typeof task.config.lang === 'string' ? task.config.lang : undefined;
    const zip = typeof task.config.deliveryZip === 'string' ? task.config.deliveryZip : undefined;
    const location = zip === undefined ? undefined : deliveryLocationKey(market.origin, market.domain, zip);
    const session: SessionHolder = { current: this.#options.sessions.take(location), location };
    const stillWanted = async (): Promise<boolean> => {
      try {
        return (await this.#options.catalog.claimTarget(task.jobId, task.targetIndex)).proceed;
      } catch {
        return true;
      }
    };
    // Requests spent on the delivery location; they count with the target's own.
    let locationRequests = 0;
    const tried = new Set<number>();
    /**
     * A target with `config.deliveryZip` first sets it on its session (once per session: a session
     * reserved for this storefront and postal code keeps it for later targets). Should that fail,
     * the target still crawls; its records say the location its pages show.
     */
    const prepare = async (holder: SessionHolder): Promise<void> => {
      // A block during the change moves the target to another session: that one gets one try too.
      for (let round = 0; round < 2; round += 1) {
        const current = holder.current;
        if (zip === undefined || current.locationSet || tried.has(current.id)) return;
        tried.add(current.id);
        const result = await setDeliveryLocation(this.#options.upstream, holder, {
          origin: market.origin,
          query: market.query,
          zip,
          lang,
          signal: this.#options.signal,
          stillWanted,
        });
        locationRequests += result.requests;
        if (!result.ok) {
          this.#options.logger?.warn(
            { jobId: task.jobId, targetIndex: task.targetIndex, deliveryZip: zip, reason: result.message },
            'delivery location not set; the target is crawled with the location its pages show',
          );
        }
      }
    };
    const get = async (url: string, referer?: string): Promise<PageOutcome> => {
      const outcome = await this.#options.upstream.getPage({ url, session, lang, referer, signal: this.#options.signal, stillWanted, prepare });
      const spent = locationRequests;
      locationRequests = 0;
      return { ...outcome, attempts: outcome.attempts + spent };
    };

    const store = (kind: 'search' | 'details'): Storefront => ({ ...market, query: { ...market.query, ...shopperQuery(market, task.config, kind) } });
    if (task.type === 'details') {
      const asin = task.value.toUpperCase();
      const outcome = await get(productUrl(store('details'), asin));
      if (!outcome.ok) return outcome.reason === 'cancelled' ? CANCELLED : failed(outcome.reason, outcome.message, outcome.attempts);
      let product;
      try {
        product = await this.#parser.product(
          outcome.page,
          { origin: market.origin, asin, ...(market.domain ? { marketplace: market.domain } : {}) },
          this.#options.signal,
        );
      } catch (error) {
        // The worker is stopping: the target is handed back unreported, not failed.
        if (this.#options.signal?.aborted) throw error;
        return failed('parse_error', `product page of ${asin} could not be parsed: ${(error as Error).message}`, outcome.attempts);
      }
      if (!product.title) return failed('parse_error', `no product title on the page of ${asin} (${outcome.page.url})`, outcome.attempts);
      const item: Record<string, unknown> = {
        ...product,
        ...(product.asin !== asin ? { requestedAsin: asin } : {}),
        ...(market.domain ? { marketplace: market.domain } : {}),
      };
      return { status: 'success', items: [item], requests: outcome.attempts };
    }

    const pages = searchPagesOf(task.config);
    const items: Array<Record<string, unknown>> = [];
    const seen = new Set<string>();
    let organic = 0;
    let requests = 0;
    let referer: string | undefined;
    for (let page = 1; page <= pages; page += 1) {
      if (page > 1 && !(await stillWanted())) return CANCELLED;
      const url = searchUrl(store('search'), task.value, page);
      const outcome = await get(url, referer);
      requests += outcome.attempts;
      if (!outcome.ok) {
        if (outcome.reason === 'cancelled') return CANCELLED;
        return failed(outcome.reason, page > 1 ? `page ${page} of ${pages}: ${outcome.message}` : outcome.message, requests);
      }
      let parsed;
      try {
        parsed = await this.#parser.search(
          outcome.page,
          {
            origin: market.origin,
            keyword: task.value,
            page,
            ...(market.domain ? { marketplace: market.domain } : {}),
          },
          this.#options.signal,
        );
      } catch (error) {
        if (this.#options.signal?.aborted) throw error;
        return failed('parse_error', `search page ${page} for ${JSON.stringify(task.value)} could not be parsed: ${(error as Error).message}`, requests);
      }
      for (const item of parsed.items) {
        // An ad for a product does not take the product's organic place: de-duplicate each kind apart.
        const key = `${item.sponsored ? 'sponsored' : 'organic'}:${item.asin}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push(toResultItem(item, parsed, task.value, page, item.sponsored ? undefined : (organic += 1)));
      }
      if (!parsed.hasNextPage) break;
      referer = outcome.page.url;
    }
    return { status: 'success', items, requests };
  }
}

/**
 * A search item as stored: `rank` is the organic position across all crawled pages. The values of
 * its page (total results estimate, related searches) travel on every item of that page, so a
 * record (or an exported row) stands on its own.
 */
function toResultItem(item: SearchItem, page: SearchPage, keyword: string, pageNumber: number, rank: number | undefined): Record<string, unknown> {
  const { rank: _pageRank, missingFields, ...rest } = item;
  const pageMissing = [...(page.totalResults === undefined ? ['searchTotalResults'] : []), ...(page.relatedSearches === undefined ? ['relatedSearches'] : [])];
  return {
    ...rest,
    keyword,
    page: pageNumber,
    ...(rank !== undefined ? { rank } : {}),
    ...(page.totalResults !== undefined ? { searchTotalResults: page.totalResults } : {}),
    ...(page.relatedSearches !== undefined ? { relatedSearches: page.relatedSearches } : {}),
    ...(page.deliverTo !== undefined ? { deliverTo: page.deliverTo } : {}),
    missingFields: [...missingFields, ...pageMissing],
  };
}
