// The crawler-worker's own stack, built as its module.ts builds it (upstream budget per egress
// identity, session pool, undici fetcher, upstream client with retries, target crawler), with a
// catalog that only records reports. Parsing runs inline (PARSE_THREADS=0): outcomes, not speed.
import type { ClaimTargetResponse, CrawlTask, ReportTargetBody } from '@crawl/contracts';
import { CrawlerConfig } from '../../services/crawler-worker/src/config.ts';
import { allowedUrlRule } from '../../services/crawler-worker/src/features/fetching/allowed-urls.ts';
import { TargetCrawler, type CatalogPort } from '../../services/crawler-worker/src/features/crawling/target-crawler.ts';
import { UndiciPageFetcher } from '../../services/crawler-worker/src/features/fetching/page-fetcher.ts';
import { SessionPool } from '../../services/crawler-worker/src/features/fetching/session-pool.ts';
import { UpstreamClient } from '../../services/crawler-worker/src/features/fetching/upstream-client.ts';
import { openUpstreamBudget } from '../../services/crawler-worker/src/cross-feature/upstream-budget.ts';
import type { UpstreamRateLimiter } from '../../services/crawler-worker/src/features/rate-limit/upstream-rate-limiter.ts';

/** The worker's default for a setting, read from its config schema so the bench follows it. */
function workerDefault(name: keyof typeof CrawlerConfig.properties): number {
  return Number((CrawlerConfig.properties[name] as { default?: unknown }).default);
}

export const MAX_FETCH_ATTEMPTS = workerDefault('MAX_FETCH_ATTEMPTS');

/** Keeps every report by target index: the fake catalog lets every claim proceed. */
export class RecordingCatalog implements CatalogPort {
  readonly reports = new Map<number, ReportTargetBody>();

  async claimTarget(): Promise<ClaimTargetResponse['data']> {
    return { proceed: true, jobStatus: 'running', targetStatus: 'running' };
  }

  async reportTarget(_jobId: string, targetIndex: number, body: ReportTargetBody) {
    this.reports.set(targetIndex, body);
    return { jobStatus: 'running' as const, finished: false };
  }
}

/** Counts the requests each egress identity sends: every request takes a token of its identity first. */
function countingLimiter(limiter: UpstreamRateLimiter, counts: Map<string, number>): UpstreamRateLimiter {
  return {
    acquire: (signal, identity) => {
      counts.set(identity ?? 'direct', (counts.get(identity ?? 'direct') ?? 0) + 1);
      return limiter.acquire(signal, identity);
    },
    setRate: (rate) => limiter.setRate(rate),
    rate: () => limiter.rate(),
    close: () => limiter.close(),
  };
}

export interface WorkerStackOptions {
  baseUrl: string;
  /** Empty: the direct connection is the one identity. */
  proxyUrls: readonly string[];
  concurrency: number;
  /** Per egress identity, as UPSTREAM_RATE_PER_MINUTE; burst 1 below 600,000. */
  requestsPerMinute: number;
  backoffMs: number;
  maxBackoffMs: number;
}

export interface CrawlOutcome {
  reports: Map<number, ReportTargetBody>;
  /** Requests per egress identity id (`direct`, `proxy-…`). */
  requestsByIdentity: Map<string, number>;
  /** Identities cooled down (rested after PROXY_REST_AFTER_BLOCKS blocks in a row) when the crawl ended. */
  cooledDown: number;
}

/** Crawls `asins` as details targets (target index = position) through `concurrency` lanes. */
export async function crawlDetails(asins: readonly string[], options: WorkerStackOptions): Promise<CrawlOutcome> {
  const { limiter, proxies } = await openUpstreamBudget({
    UPSTREAM_RATE_PER_MINUTE: options.requestsPerMinute,
    UPSTREAM_BURST: options.requestsPerMinute >= 600_000 ? 1000 : workerDefault('UPSTREAM_BURST'),
    PROXY_URLS: options.proxyUrls.join(','),
    PROXY_REST_AFTER_BLOCKS: workerDefault('PROXY_REST_AFTER_BLOCKS'),
    PROXY_REST_MS: workerDefault('PROXY_REST_MS'),
  });
  const requestsByIdentity = new Map<string, number>();
  const sessions = new SessionPool({ proxies, maxUses: workerDefault('SESSION_MAX_USES'), size: options.concurrency * 2 });
  const fetcher = new UndiciPageFetcher({
    isAllowedUrl: allowedUrlRule(options.baseUrl, []),
    connectTimeoutMs: workerDefault('FETCH_CONNECT_TIMEOUT_MS'),
    timeoutMs: workerDefault('FETCH_TIMEOUT_MS'),
    maxResponseBytes: workerDefault('MAX_RESPONSE_BYTES'),
    maxRedirects: workerDefault('MAX_REDIRECTS'),
  });
  const upstream = new UpstreamClient({
    fetcher,
    limiter: countingLimiter(limiter, requestsByIdentity),
    sessions,
    maxAttempts: MAX_FETCH_ATTEMPTS,
    backoffMs: options.backoffMs,
    maxBackoffMs: options.maxBackoffMs,
    now: Date.now,
  });
  const catalog = new RecordingCatalog();
  const crawler = new TargetCrawler({ catalog, upstream, sessions, baseUrl: () => options.baseUrl });
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < asins.length) {
      const targetIndex = next++;
      const task: CrawlTask = {
        jobId: 'bench-blocks',
        organizationId: 'org',
        projectId: 'prj',
        targetIndex,
        type: 'details',
        value: asins[targetIndex] as string,
        config: {},
      };
      await crawler.crawl(task);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, lane));
  } finally {
    limiter.close();
    await fetcher.close();
  }
  const cooledDown = proxies.states().filter((state) => state.cooledDownUntil !== undefined).length;
  return { reports: catalog.reports, requestsByIdentity, cooledDown };
}
