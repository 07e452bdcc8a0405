import { commaList } from '@crawl/config';
import { crawlQueueDefinition, type CrawlTask } from '@crawl/contracts';
import { defineModule } from '@crawl/runtime';
import type { QueueJob } from '@crawl/queue';
import { CatalogWorkerClient, CrawlerSettingsClient, PageCacheClient } from '@crawl/service-client';
import { CrawlerConfig } from './config.ts';
import { startEmbeddedSimulator, TargetCrawler } from './features/crawling/index.ts';
import { allowedUrlRule, SessionPool, UndiciPageFetcher, UpstreamClient } from './features/fetching/index.ts';
import { defaultParseThreads, measuredParser, openPageParser } from './features/parsing/index.ts';
import type { RedisClient } from '@crawl/redis';
import { RateSetting } from './features/rate-limit/index.ts';
import { refreshWithBilling } from './cross-feature/billing-refresh.ts';
import { openUpstreamBudget } from './cross-feature/upstream-budget.ts';

/**
 * Fetches and parses marketplace pages for queued targets. It owns no durable data and serves no
 * routes of its own: results go to catalog through its internal API, and the admin-set upstream
 * rate comes from billing (re-read every RATE_SETTING_REFRESH_MS). The upstream rate is a budget per
 * egress identity (proxy or direct connection), shared by every replica through Redis.
 */
export const crawlerWorkerModule = defineModule<CrawlerConfig>({
  name: 'crawler-worker',
  dependencies: ['catalog', 'billing'],
  configSchema: CrawlerConfig,
  async init(context) {
    const { config, logger } = context;
    const queue = context.queues.queue<CrawlTask>(crawlQueueDefinition());
    // The upstream rate is a budget per egress identity (each proxy, or the direct connection).
    // With REDIS_URL each identity's budget and cool-down is shared by every worker replica (GCRA
    // in Redis); without it, this process's own. Billing holds the admin-set rate.
    const redisUrl = context.runtime.REDIS_URL;
    // The Redis driver is loaded only when there is a Redis: the all-in-one never loads it.
    const redisKit = redisUrl ? await import('@crawl/redis') : undefined;
    const rateRedis: RedisClient | undefined = redisUrl && redisKit ? redisKit.openRedis(redisUrl, { name: 'crawl-upstream-rate' }) : undefined;
    const { limiter, proxies } = await openUpstreamBudget(
      config,
      rateRedis ? { redis: rateRedis, key: `${context.runtime.REDIS_PREFIX}:upstream` } : undefined,
    );
    const sessions = new SessionPool({ proxies, maxUses: config.SESSION_MAX_USES, size: config.CRAWL_CONCURRENCY * 2 });
    const stopping = new AbortController();
    let baseUrl = config.MARKETPLACE_BASE_URL;
    let fetcher: UndiciPageFetcher | undefined;
    const parseThreads = config.PARSE_THREADS ?? defaultParseThreads(context.isLocal('gateway'));
    const parser = measuredParser(openPageParser(config, parseThreads), context.metrics);
    let simulator: Awaited<ReturnType<typeof startEmbeddedSimulator>> | undefined;
    let refreshTimer: NodeJS.Timeout | undefined;

    return {
      async start() {
        const settings = new CrawlerSettingsClient(context.client('billing'));
        const rate = new RateSetting({ read: () => settings.get(), limiter, defaultRate: config.UPSTREAM_RATE_PER_MINUTE });
        const refreshRate = () => refreshWithBilling({ rate, proxies, billing: settings, logger });
        await refreshRate();
        if (config.MARKETPLACE === 'simulator') {
          simulator = await startEmbeddedSimulator(config.SIMULATOR_PORT);
          baseUrl = simulator.url;
          logger.info({ url: simulator.url }, 'MARKETPLACE=simulator: crawling the built-in marketplace simulator');
        }
        fetcher = new UndiciPageFetcher({
          isAllowedUrl: allowedUrlRule(baseUrl, commaList(config.MARKETPLACE_EXTRA_HOSTS)),
          connectTimeoutMs: config.FETCH_CONNECT_TIMEOUT_MS,
          timeoutMs: config.FETCH_TIMEOUT_MS,
          maxResponseBytes: config.MAX_RESPONSE_BYTES,
          maxRedirects: config.MAX_REDIRECTS,
        });
        const upstream = new UpstreamClient({
          fetcher,
          limiter,
          sessions,
          maxAttempts: config.MAX_FETCH_ATTEMPTS,
          backoffMs: config.FETCH_BACKOFF_MS,
          maxBackoffMs: config.FETCH_MAX_BACKOFF_MS,
          now: () => context.clock.now().getTime(),
          metrics: context.metrics,
        });
        const crawler = new TargetCrawler({
          catalog: new CatalogWorkerClient(context.client('catalog')),
          upstream,
          sessions,
          parser,
          baseUrl: () => baseUrl,
          logger,
          signal: stopping.signal,
          infrastructureRetry: { maxDelayMs: config.INFRA_RETRY_MAX_DELAY_MS, windowMs: config.INFRA_RETRY_WINDOW_MS },
          metrics: context.metrics,
          pageCache: new PageCacheClient(context.client('catalog')),
        });
        refreshTimer = setInterval(() => void refreshRate(), config.RATE_SETTING_REFRESH_MS);
        refreshTimer.unref();
        await queue.process((job: QueueJob<CrawlTask>) => crawler.crawl(job.payload, job), {
          concurrency: config.CRAWL_CONCURRENCY,
          onFailed: async (job, error) => {
            logger.error(
              { err: error, jobId: job.payload.jobId, targetIndex: job.payload.targetIndex },
              'crawl task failed for good; reporting the target failed',
            );
            await crawler.giveUp(job.payload, error);
          },
        });
        logger.info(
          {
            origin: baseUrl,
            concurrency: config.CRAWL_CONCURRENCY,
            parseThreads,
            requestsPerMinute: limiter.rate(),
          },
          'crawler-worker processing crawl targets',
        );
      },
      async stop() {
        if (refreshTimer) clearInterval(refreshTimer);
        // In-flight targets get most of the grace period to finish; whatever still waits (for a
        // token, a backoff, a slow page) is then aborted unreported, and catalog re-enqueues it.
        const grace = context.runtime.SHUTDOWN_GRACE_MS;
        const abortTimer = setTimeout(() => stopping.abort(new Error('crawler-worker stopping')), Math.max(0, grace - 1_000));
        await queue.close(grace);
        clearTimeout(abortTimer);
        stopping.abort(new Error('crawler-worker stopped'));
        limiter.close();
        if (rateRedis && redisKit) await redisKit.closeRedis(rateRedis);
        await fetcher?.close();
        await parser.close();
        await simulator?.close();
      },
    };
  },
});
