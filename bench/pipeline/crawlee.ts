// Crawlee 3 CheerioCrawler on the same product URLs at the same concurrency, in a process of its
// own: its HTTP client (got-scraping, generated browser headers), cheerio's DOM and a handler that
// reads the product's main fields with selectors. No storage on disk, no retries, no rate limit.
// Args: <simulator url> <pages> <warm-up pages> <concurrency>
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';
import { type CrawlRun, withPeakRss } from './child.ts';
import { asinOf } from './settings.ts';

const [baseUrl = '', pagesArg, warmupArg, concurrencyArg] = process.argv.slice(2);
const pages = Number(pagesArg);
const warmup = Number(warmupArg);
const concurrency = Number(concurrencyArg);
log.setLevel(log.LEVELS.ERROR);

let succeeded = 0;
let failed = 0;
const config = new Configuration({ persistStorage: false, purgeOnStart: true });

async function crawl(label: string, first: number, count: number): Promise<void> {
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      requestHandlerTimeoutSecs: 60,
      async requestHandler({ $ }) {
        const product = {
          title: $('#productTitle').text().trim() || $('#title').text().trim(),
          price: $('.a-price .a-offscreen').first().text().trim(),
          rating: $('#acrPopover').attr('title') ?? '',
          reviews: $('#acrCustomerReviewText').first().text().trim(),
          features: $('#feature-bullets li')
            .map((_, li) => $(li).text().trim())
            .get(),
          image: $('#landingImage').attr('src') ?? '',
        };
        if (product.title) succeeded += 1;
        else failed += 1;
      },
      failedRequestHandler() {
        failed += 1;
      },
    },
    config,
  );
  const requests = Array.from({ length: count }, (_, i) => ({ url: `${baseUrl}/dp/${asinOf(first + i)}`, uniqueKey: `${label}-${first + i}` }));
  await crawler.run(requests);
}

await crawl('warmup', 0, warmup);
succeeded = 0;
failed = 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const { peakRssMb } = await withPeakRss(() => crawl('measured', warmup, pages));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const run: CrawlRun = { pagesPerSecond: succeeded / seconds, pages: succeeded, failed, peakRssMb, cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages };
console.log(JSON.stringify(run));
process.exit(0);
