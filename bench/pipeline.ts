// Pipeline benchmark: our crawl pipeline (fetch + parse on the worker's real code path, the parse
// pool on every core, limit off) against (1) the parse-bound ceiling, cores × 1000 / median
// extraction ms (a parse thread's own per-page entry, the page's bytes in and its record out, in a
// warm loop), measured in the same run, and (2) Crawlee 3 CheerioCrawler on the same URLs at the
// same concurrency, with the peak RSS of each. The simulator serves full-size product pages on
// loopback from its own process. Interleaved rounds, medians of the per-round ratios.
// Run: pnpm bench pipeline   (knobs: bench/pipeline/settings.ts; method: docs/benchmarks.md, "Pipeline")
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load, median, ratioOfRounds } from './storage/measure.ts';
import { type CrawlRun, runChild } from './pipeline/child.ts';
import { fetchServedPages, medianExtractionMs } from './pipeline/extraction.ts';
import { SETTINGS } from './pipeline/settings.ts';

const script = (name: string): string => fileURLToPath(new URL(`./pipeline/${name}`, import.meta.url));

interface SimulatorProcess {
  url: string;
  /** CPU ms the simulator process has used so far, and requests served. */
  usage(): Promise<{ cpuMs: number; requests: number }>;
  stop(): void;
}

async function startSimulator(): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', script('server.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift() as string) : waiters.push(resolve)));
  const { url } = JSON.parse(await nextLine()) as { url: string };
  return {
    url,
    async usage() {
      child.stdin.write('cpu\n');
      return JSON.parse(await nextLine()) as { cpuMs: number; requests: number };
    },
    stop: () => child.stdin.end(),
  };
}

export interface PipelineRound {
  extractionMs: number;
  ceiling: number;
  ours: CrawlRun;
  /** The same pipeline parsing on the event loop (PARSE_THREADS=0): what the pool adds. */
  inline: CrawlRun;
  /** The parse pool alone on the same pages held in memory: what parsing on every core reaches without fetching. */
  parseOnly: CrawlRun;
  /** The same with one parse thread: what the second thread adds (two-thread scaling). */
  parseOnlyOne: CrawlRun;
  crawlee: CrawlRun | undefined;
  /** Simulator CPU per page served during the round, ms. */
  serverCpuMsPerPage: number;
}

export async function main(): Promise<void> {
  const S = SETTINGS;
  const timeoutMs = S.runTimeoutSeconds * 1000;
  console.log(
    `Product pages (simulator, full size, ${S.distinctPages} distinct ASINs) on 127.0.0.1; ${S.rounds} interleaved rounds of ${S.pages} pages per crawler after ${S.warmup} warm-up pages; ` +
      `fetch concurrency ${S.concurrency}, parse threads ${S.parseThreads}, ${S.cores} cores; node ${process.version}; load average at start ${load()}\n`,
  );
  const simulator = await startSimulator();
  const rounds: PipelineRound[] = [];
  let crawleeError: string | undefined;
  try {
    const served = await fetchServedPages(simulator.url);
    const mb = median(served.map((p) => p.bytes.byteLength)) / 1e6;
    console.log(`served pages: median ${mb.toFixed(2)} MB\n`);
    const crawlArgs = [simulator.url, String(S.pages), String(S.warmup), String(S.concurrency)];
    type Case = 'extraction' | 'ours' | 'inline' | 'parseOnly' | 'parseOnlyOne' | 'crawlee';
    const cases: Record<Case, () => Promise<void>> = {
      extraction: async () => {
        round.extractionMs = medianExtractionMs(served);
      },
      ours: async () => {
        round.ours = await runChild<CrawlRun>(script('ours.ts'), [...crawlArgs, String(S.parseThreads)], timeoutMs);
      },
      inline: async () => {
        round.inline = await runChild<CrawlRun>(script('ours.ts'), [...crawlArgs, '0'], timeoutMs);
      },
      parseOnly: async () => {
        round.parseOnly = await runChild<CrawlRun>(script('parse-only.ts'), [...crawlArgs, String(S.parseThreads)], timeoutMs);
      },
      parseOnlyOne: async () => {
        round.parseOnlyOne = await runChild<CrawlRun>(script('parse-only.ts'), [...crawlArgs, '1'], timeoutMs);
      },
      crawlee: async () => {
        try {
          round.crawlee = await runChild<CrawlRun>(script('crawlee.ts'), crawlArgs, timeoutMs);
        } catch (error) {
          crawleeError = (error as Error).message;
        }
      },
    };
    const names = Object.keys(cases) as Case[];
    let round = {} as PipelineRound;
    for (let i = 0; i < S.rounds; i += 1) {
      // Rotated order (A B C, B C A, C A B): no case always runs first or after the same one.
      const order = names.map((_, k) => names[(k + i) % names.length] as Case);
      round = {
        extractionMs: Number.NaN,
        ceiling: Number.NaN,
        ours: undefined as unknown as CrawlRun,
        inline: undefined as unknown as CrawlRun,
        parseOnly: undefined as unknown as CrawlRun,
        parseOnlyOne: undefined as unknown as CrawlRun,
        crawlee: undefined,
        serverCpuMsPerPage: Number.NaN,
      };
      const startLoad = load();
      for (const name of order) await cases[name]();
      round.ceiling = (S.cores * 1000) / round.extractionMs;
      rounds.push(round);
      console.log(
        `round ${i + 1} (${order.join(', ')}): load ${startLoad} → ${load()}; ours ${round.ours.pagesPerSecond.toFixed(1)} pages/s, ` +
          `inline ${round.inline.pagesPerSecond.toFixed(1)}, parse-only ${round.parseOnly.pagesPerSecond.toFixed(1)} (one thread ${round.parseOnlyOne.pagesPerSecond.toFixed(1)}), ceiling ${round.ceiling.toFixed(1)}, Crawlee ${round.crawlee ? round.crawlee.pagesPerSecond.toFixed(1) : 'n/a'}`,
      );
    }
    const usage = await simulator.usage();
    const perPage = usage.cpuMs / Math.max(1, usage.requests);
    for (const r of rounds) r.serverCpuMsPerPage = perPage;
  } finally {
    simulator.stop();
  }
  report(rounds, crawleeError);
}

function report(rounds: PipelineRound[], crawleeError: string | undefined): void {
  const f = (n: number | undefined, digits = 1) => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));
  console.log('');
  console.log(
    '| round | extraction ms/page | ceiling pages/s | ours pages/s | inline pages/s | parse-only pages/s | ours ÷ ceiling | parse-only ÷ ceiling | Crawlee pages/s | ours ÷ Crawlee | RSS ours MB | RSS Crawlee MB | CPU ms/page ours (main thread) | CPU ms/page parse-only (main thread) | CPU ms/page Crawlee |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  rounds.forEach((r, i) => {
    console.log(
      `| ${i + 1} | ${f(r.extractionMs)} | ${f(r.ceiling)} | ${f(r.ours.pagesPerSecond)} | ${f(r.inline.pagesPerSecond)} | ${f(r.parseOnly.pagesPerSecond)} | ${f(r.ours.pagesPerSecond / r.ceiling, 2)} | ` +
        `${f(r.parseOnly.pagesPerSecond / r.ceiling, 2)} | ${f(r.crawlee?.pagesPerSecond)} | ` +
        `${f(r.crawlee ? r.ours.pagesPerSecond / r.crawlee.pagesPerSecond : undefined, 2)} | ${f(r.ours.peakRssMb, 0)} | ${f(r.crawlee?.peakRssMb, 0)} | ${f(r.ours.cpuMsPerPage)} (${f(r.ours.mainCpuMsPerPage)}) | ${f(r.parseOnly.cpuMsPerPage)} (${f(r.parseOnly.mainCpuMsPerPage)}) | ${f(r.crawlee?.cpuMsPerPage)} |`,
    );
  });
  const ours = rounds.map((r) => r.ours.pagesPerSecond);
  const ceilingRatio = ratioOfRounds(
    ours,
    rounds.map((r) => r.ceiling),
  );
  const crawleeRatio = ratioOfRounds(
    ours,
    rounds.map((r) => r.crawlee?.pagesPerSecond ?? Number.NaN),
  );
  const poolRatio = ratioOfRounds(
    ours,
    rounds.map((r) => r.inline.pagesPerSecond),
  );
  const parseOnlyRatio = ratioOfRounds(
    rounds.map((r) => r.parseOnly.pagesPerSecond),
    rounds.map((r) => r.ceiling),
  );
  const cpuBound = median(rounds.map((r) => r.extractionMs / r.ours.cpuMsPerPage));
  const cpuBoundWithServer = median(rounds.map((r) => r.extractionMs / (r.ours.cpuMsPerPage + r.serverCpuMsPerPage)));
  const perPage = (pick: (r: PipelineRound) => number) => f(median(rounds.map(pick)));
  const rssRatio = ratioOfRounds(
    rounds.map((r) => r.crawlee?.peakRssMb ?? Number.NaN),
    rounds.map((r) => r.ours.peakRssMb),
  );
  const failures = rounds.reduce((n, r) => n + r.ours.failed + r.inline.failed + r.parseOnly.failed + r.parseOnlyOne.failed + (r.crawlee?.failed ?? 0), 0);
  console.log(
    `\nmedian of per-round ratios: ours ÷ ceiling ${f(ceilingRatio, 2)} (goal ≥ 0.8); ours ÷ Crawlee ${f(crawleeRatio, 2)} (goal ≥ 2); Crawlee RSS ÷ ours ${f(rssRatio, 1)}; pool ÷ inline ${f(poolRatio, 2)}`,
  );
  console.log(`parse-only pool ÷ ceiling ${f(parseOnlyRatio, 2)} (parsing on every core with fetching free)`);
  console.log(
    `CPU per page (medians): extraction ${perPage((r) => r.extractionMs)} ms; ours ${perPage((r) => r.ours.cpuMsPerPage)} ms, of which the main thread (fetching, block checks, hand-off) ` +
      `${perPage((r) => r.ours.mainCpuMsPerPage ?? Number.NaN)} and the other threads (parse threads, and V8's garbage collection helpers for all threads) ${perPage((r) => r.ours.cpuMsPerPage - (r.ours.mainCpuMsPerPage ?? Number.NaN))}; ` +
      `simulator ${f(rounds[0]?.serverCpuMsPerPage)} ms (same cores as the crawlers)`,
  );
  console.log(
    `extraction ms ÷ our CPU ms per page: ${f(cpuBound, 2)}; ÷ (ours + simulator): ${f(cpuBoundWithServer, 2)} (the most ours ÷ ceiling can reach on these cores: the rest of each page's CPU is fetching, decoding and hand-off, and serving it)`,
  );
  for (const line of ceilingBound(rounds)) console.log(line);
  if (failures > 0) console.log(`pages that failed (not counted in pages/s): ${failures}`);
  if (crawleeError) console.log(`Crawlee run failed: ${crawleeError}`);
  console.log(`load average at the end ${load()}`);
}

/**
 * Why the ceiling ratio is what it is, per page: with every core busy, pages/s = cores × 1000 ÷ (CPU
 * ms per page of everything on the cores), so ours ÷ ceiling = (extraction ÷ all CPU per page) ×
 * (share of the cores kept busy). The first factor is the bound on these cores; the second is what
 * scheduling, waiting and other processes took.
 */
function ceilingBound(rounds: PipelineRound[]): string[] {
  const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
  const m = (pick: (r: PipelineRound) => number) => median(rounds.map(pick));
  const cores = SETTINGS.cores;
  const extraction = m((r) => r.extractionMs);
  const main = m((r) => r.ours.mainCpuMsPerPage ?? Number.NaN);
  const threads = m((r) => r.ours.cpuMsPerPage - (r.ours.mainCpuMsPerPage ?? Number.NaN));
  const server = m((r) => r.serverCpuMsPerPage);
  const efficiency = m((r) => r.extractionMs / (r.ours.cpuMsPerPage + r.serverCpuMsPerPage));
  const busy = m((r) => (r.ours.pagesPerSecond * (r.ours.cpuMsPerPage + r.serverCpuMsPerPage)) / (cores * 1000));
  const poolEfficiency = m((r) => r.extractionMs / r.parseOnly.cpuMsPerPage);
  const poolBusy = m((r) => (r.parseOnly.pagesPerSecond * r.parseOnly.cpuMsPerPage) / (cores * 1000));
  const poolThreads = m((r) => r.parseOnly.cpuMsPerPage - (r.parseOnly.mainCpuMsPerPage ?? Number.NaN));
  const oneThread = m((r) => r.parseOnlyOne.cpuMsPerPage - (r.parseOnlyOne.mainCpuMsPerPage ?? Number.NaN));
  const scaling = m((r) => r.parseOnly.pagesPerSecond / r.parseOnlyOne.pagesPerSecond);
  // For ours ÷ ceiling ≥ 0.8 with every core busy, all CPU per page must stay within extraction ÷ 0.8.
  const allowed = extraction / 0.8 - extraction;
  return [
    `ours ÷ ceiling ≈ ${f(efficiency, 2)} (extraction ÷ all CPU per page on these cores) × ${f(busy, 2)} (share of ${cores} cores kept busy, ours + simulator) = ${f(efficiency * busy, 2)}`,
    `  per page besides ${f(extraction)} ms of extraction: other threads ${f(threads - extraction)} ms beyond it (hand-off, garbage collection of every thread's heap, caches shared with the other thread), ` +
      `main thread ${f(main)} ms (fetching, block check, hand-off), simulator ${f(server)} ms: ${f(threads - extraction + main + server)} ms, against the ${f(allowed)} ms that 0.8 would allow`,
    `parse-only ÷ ceiling ≈ ${f(poolEfficiency, 2)} (extraction ÷ the pool's CPU per page, threads ${f(poolThreads)} ms) × ${f(poolBusy, 2)} (share of the cores kept busy)`,
    `  ${SETTINGS.parseThreads} parse threads ÷ one: ${f(scaling, 2)}× the pages/s (thread CPU per page ${f(poolThreads)} ms against ${f(oneThread)} ms with one thread)`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
