import type { CrawlTask, JobConfig, JobType, ReportTargetBody } from '@crawl/contracts';
import { isAppError } from '@crawl/errors';
import { RetryLaterError } from '@crawl/queue';
import { isSearchSort, marketplaceForOrigin, SEARCH_SORTS, storefrontLanguage, type MarketplaceDomain } from '@crawl/marketplace';
import { noMetrics, type PageCacheMetrics, type TargetMetrics } from '@crawl/metrics';
import type { CatalogWorkerClient } from '@crawl/service-client';
import { deliveryLocationKey, setDeliveryLocation, type SessionHolder, type SessionPool, type UpstreamClient } from '../fetching/index.ts';
import { inlinePageParser, type PageParser } from '../parsing/index.ts';
import { CANCELLED, type Crawled, type CrawlContext, failed } from './crawl-context.ts';
import { isInfrastructureError } from './infrastructure-errors.ts';
import { InfrastructureRetry, type InfrastructureRetryOptions } from './infrastructure-retry.ts';
import { resolveMarketplace, type Storefront } from './marketplace-origin.ts';
import { requiredFields } from './record-quality.ts';
import { KIND_CRAWLS } from './kind-crawls.ts';
import { cachedReport, cacheQuestion, type CacheQuestion, type PageCache } from './page-cache.ts';

export type CatalogPort = Pick<CatalogWorkerClient, 'claimTarget' | 'reportTarget'>;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface TargetCrawlerOptions {
  catalog: CatalogPort;
  upstream: Pick<UpstreamClient, 'getPage' | 'tries'>;
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
  /** Targets by outcome and reason, page cache hits and misses; default none. */
  metrics?: (TargetMetrics & Partial<PageCacheMetrics>) | undefined;
  /** The shared page cache for jobs with `config.maxAge`; absent, every target is fetched. */
  pageCache?: PageCache | undefined;
}

/** Which try of its task this is, as the queue says (the attempts travel with the task). */
export interface TaskAttempt {
  attempt: number;
  maxAttempts: number;
}

export const INFRASTRUCTURE_RETRY_DEFAULTS = { baseDelayMs: 1_000, maxDelayMs: 30_000, windowMs: 300_000 } as const;

/**
 * The job's shopper options as the storefront takes them in the URL: the language from its
 * switcher (`language=en_GB`, only one it offers) and, for search pages, the sort (`s=`). The
 * delivery location is no URL option: it is set on the crawl session (see `setDeliveryLocation`).
 */
export function shopperQuery(store: Storefront, config: JobConfig, kind: JobType): Record<string, string> {
  const real = marketplaceForOrigin(store.origin);
  const domain = (store.domain ?? real?.domain ?? 'amazon.com') as MarketplaceDomain;
  const query: Record<string, string> = {};
  const language = config.lang === undefined ? undefined : storefrontLanguage(domain, config.lang);
  if (language !== undefined) query.language = language;
  if ((kind === 'search' || kind === 'category') && isSearchSort(config.sort) && config.sort !== 'featured') query.s = SEARCH_SORTS[config.sort];
  return query;
}

/** A delivery with no attempt information is never treated as the last one. */
const NOT_THE_LAST: TaskAttempt = { attempt: 1, maxAttempts: Number.POSITIVE_INFINITY };

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

  /**
   * A job with `config.maxAge` (details and search) is answered from the shared page cache when a
   * fetch of the same page is young enough; otherwise the page is fetched and, on success, kept
   * there for the next job. The cache failing is a miss and a lost write, never a failed target.
   */
  async #work(task: CrawlTask): Promise<Crawled> {
    const market = resolveMarketplace(this.#options.baseUrl(), task.config);
    if (!market.ok) return failed('invalid_target', market.message, 0);
    const cache = this.#options.pageCache;
    const question = cache === undefined ? undefined : cacheQuestion(task, market);
    if (cache === undefined || question === undefined) return this.#fetch(task, market);
    const hit = await this.#cached(cache, question, task);
    this.#options.metrics?.pageCacheLookup?.(task.type, hit !== undefined);
    if (hit !== undefined) return cachedReport(task, hit.records, hit.fetchedAt, requiredFields(task.config));
    const fetchedAt = new Date().toISOString();
    const crawled = await this.#fetch(task, market);
    if (crawled !== CANCELLED && crawled.status === 'success' && crawled.items.length > 0) {
      await cache.store(question.key, crawled.items, fetchedAt).catch((error: unknown) => {
        this.#options.logger?.warn(
          { err: error, jobId: task.jobId, targetIndex: task.targetIndex },
          'page cache write failed; the target is reported as fetched',
        );
      });
    }
    return crawled;
  }

  async #cached(cache: PageCache, question: CacheQuestion, task: CrawlTask): Promise<Awaited<ReturnType<PageCache['lookup']>>> {
    try {
      return await cache.lookup(question.key, question.maxAgeMs);
    } catch (error) {
      this.#options.logger?.warn({ err: error, jobId: task.jobId, targetIndex: task.targetIndex }, 'page cache lookup failed; fetching the page');
      return undefined;
    }
  }

  async #fetch(task: CrawlTask, market: Extract<ReturnType<typeof resolveMarketplace>, { ok: true }>): Promise<Crawled> {
    const { lang, deliveryZip: zip } = task.config;
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
    const readySession = async (holder: SessionHolder): Promise<void> => {
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
    const context: CrawlContext = {
      task,
      store: { ...market, query: { ...market.query, ...shopperQuery(market, task.config, task.type) } },
      parser: this.#parser,
      tries: (url, referer) => this.#options.upstream.tries({ url, session, lang, referer, signal: this.#options.signal }),
      pages: async function* (tries) {
        for await (const step of tries) {
          if (step.kind === 'page') yield step.page;
          else if (step.attempt > 1 && !(await stillWanted())) tries.stop('job no longer wants this target');
          else await readySession(step.session);
        }
      },
      outcomeOf: (tries) => {
        const spent = locationRequests;
        locationRequests = 0;
        return { ...tries.outcome, attempts: tries.outcome.attempts + spent };
      },
      stillWanted,
      required: requiredFields(task.config),
      zip,
      signal: this.#options.signal,
    };
    return KIND_CRAWLS[task.type](context);
  }
}
