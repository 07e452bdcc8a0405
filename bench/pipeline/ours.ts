// Our crawl pipeline in a process of its own, on the worker's real code path: TargetCrawler →
// UpstreamClient → UndiciPageFetcher, extraction on the parse pool (PARSE_THREADS threads; 0 =
// inline), the upstream rate limit off. Catalog is a stub that lets every claim proceed.
// Args: <simulator url> <pages> <warm-up pages> <concurrency> <parse threads>
import type { ClaimTargetResponse, CrawlTask, ReportTargetBody } from '@crawl/contracts';
import { allowedUrlRule } from '../../services/crawler-worker/src/features/fetching/allowed-urls.ts';
import { TargetCrawler, type CatalogPort } from '../../services/crawler-worker/src/features/crawling/target-crawler.ts';
import { UndiciPageFetcher } from '../../services/crawler-worker/src/features/fetching/page-fetcher.ts';
import { ProxyPool } from '../../services/crawler-worker/src/features/egress/index.ts';
import { SessionPool } from '../../services/crawler-worker/src/features/fetching/session-pool.ts';
import { UpstreamClient } from '../../services/crawler-worker/src/features/fetching/upstream-client.ts';
import { openPageParser } from '../../services/crawler-worker/src/features/parsing/open-page-parser.ts';
import type { UpstreamRateLimiter } from '../../services/crawler-worker/src/features/rate-limit/upstream-rate-limiter.ts';
import { type CrawlRun, withPeakRss } from './child.ts';
import { asinOf } from './settings.ts';

const [baseUrl = '', pagesArg, warmupArg, concurrencyArg, threadsArg] = process.argv.slice(2);
const pages = Number(pagesArg);
const warmup = Number(warmupArg);
const concurrency = Number(concurrencyArg);

class StubCatalog implements CatalogPort {
  succeeded = 0;
  failed = 0;
  async claimTarget(): Promise<ClaimTargetResponse['data']> {
    return { proceed: true, jobStatus: 'running', targetStatus: 'running' };
  }
  async reportTarget(_jobId: string, _index: number, body: ReportTargetBody) {
    if (body.status === 'success' && body.items.length === 1) this.succeeded += 1;
    else {
      this.failed += 1;
      if (this.failed <= 3) console.error(`target failed: ${body.reason} ${body.message}`);
    }
    return { jobStatus: 'running', finished: false };
  }
}

const noLimit: UpstreamRateLimiter = {
  acquire: async () => undefined,
  setRate: async () => undefined,
  rate: () => Number.POSITIVE_INFINITY,
  close: () => undefined,
};
const parser = openPageParser({ PARSE_QUEUE: 4, PARSE_THREAD_HEAP_MB: 256, MAX_RESPONSE_BYTES: 8 * 1024 * 1024 }, Number(threadsArg));
const fetcher = new UndiciPageFetcher({
  isAllowedUrl: allowedUrlRule(baseUrl, []),
  connectTimeoutMs: 5_000,
  timeoutMs: 30_000,
  maxResponseBytes: 8 * 1024 * 1024,
  maxRedirects: 3,
});
const sessions = new SessionPool({ proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 60_000 }), maxUses: 50, size: concurrency * 2 });
const upstream = new UpstreamClient({
  fetcher,
  limiter: noLimit,
  sessions,
  maxAttempts: 1,
  backoffMs: 1,
  maxBackoffMs: 1,
  now: Date.now,
});
const catalog = new StubCatalog();
const crawler = new TargetCrawler({ catalog, upstream, sessions, parser, baseUrl: () => baseUrl });

/** `count` details targets through `concurrency` lanes, as the queue hands them to the worker. */
async function crawlTargets(first: number, count: number): Promise<void> {
  let next = first;
  const lane = async () => {
    while (next < first + count) {
      const index = next++;
      const task: CrawlTask = {
        jobId: 'bench',
        organizationId: 'org',
        projectId: 'prj',
        targetIndex: index,
        type: 'details',
        value: asinOf(index),
        config: {},
      };
      await crawler.crawl(task);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

await crawlTargets(0, warmup);
catalog.succeeded = 0;
catalog.failed = 0;
const cpuBefore = process.cpuUsage();
const mainCpuBefore = process.threadCpuUsage();
const started = performance.now();
const { peakRssMb } = await withPeakRss(() => crawlTargets(warmup, pages));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const mainCpu = process.threadCpuUsage(mainCpuBefore);
await parser.close();
await fetcher.close();
const run: CrawlRun = {
  pagesPerSecond: catalog.succeeded / seconds,
  pages: catalog.succeeded,
  failed: catalog.failed,
  peakRssMb,
  cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages,
  mainCpuMsPerPage: (mainCpu.user + mainCpu.system) / 1000 / pages,
};
console.log(JSON.stringify(run));
