// The parse pool alone, in a process of its own: the served pages are fetched once and kept as
// bytes, then handed to the pool as the fetcher would hand them (a buffer of its own per page, moved
// to the thread). What "parsing on every core" reaches when fetching costs nothing, against the same
// ceiling.
// Args: <simulator url> <pages> <warm-up pages> <concurrency> <parse threads>
import { ParsePool } from '../../services/crawler-worker/src/features/parsing/parse-pool.ts';
import { type CrawlRun, withPeakRss } from './child.ts';
import { fetchServedPages, type ServedPage } from './extraction.ts';

const [baseUrl = '', pagesArg, warmupArg, concurrencyArg, threadsArg] = process.argv.slice(2);
const served = await fetchServedPages(baseUrl);
const pool = new ParsePool({ threads: Number(threadsArg), queue: 4, maxPageBytes: 8 * 1024 * 1024, threadHeapMb: 256 });
let parsed = 0;

async function parsePages(first: number, count: number): Promise<void> {
  let next = first;
  const lane = async () => {
    while (next < first + count) {
      const page = served[next++ % served.length] as ServedPage;
      const { product } = await pool.product(
        { html: '', body: new Uint8Array(page.bytes), charset: page.charset },
        { origin: 'https://www.amazon.com', asin: page.asin },
      );
      if (product.title) parsed += 1;
    }
  };
  await Promise.all(Array.from({ length: Number(concurrencyArg) }, lane));
}

const pages = Number(pagesArg);
await parsePages(0, Number(warmupArg));
parsed = 0;
const cpuBefore = process.cpuUsage();
const mainCpuBefore = process.threadCpuUsage();
const started = performance.now();
const { peakRssMb } = await withPeakRss(() => parsePages(0, pages));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const mainCpu = process.threadCpuUsage(mainCpuBefore);
await pool.close();
const run: CrawlRun = {
  pagesPerSecond: parsed / seconds,
  pages: parsed,
  failed: pages - parsed,
  peakRssMb,
  cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages,
  mainCpuMsPerPage: (mainCpu.user + mainCpu.system) / 1000 / pages,
};
console.log(JSON.stringify(run));
