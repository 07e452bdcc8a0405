// Parser benchmark: streaming extraction vs a parse5 tree build of the same 1–2 MB page.
// Run: node --experimental-strip-types --expose-gc bench/parser.ts   (BENCH_ITERATIONS=30 by default)
import { detectBlock, parseProductPage, parseSearchPage } from '@crawl/marketplace';
// An internal of the parser (not part of its API), used only to build the markup-only comparison.
import { rawTextSegments } from '../packages/marketplace/src/html/raw-text.ts';
import { renderProductPage, renderSearchPage, type ProductLayout, type SearchLayout } from '@crawl/marketplace-simulator';
import { parse } from 'parse5';
import { pathToFileURL } from 'node:url';

export interface BenchResult {
  page: 'search' | 'product';
  layout: string;
  bytes: number;
  iterations: number;
  /** parse5 `parse()` of the same string. */
  baseline: Timing;
  /** parseSearchPage / parseProductPage. */
  extraction: Timing;
  detectBlock: Timing;
  /**
   * Median of the per-iteration ratios extraction/baseline. Each pair runs back to back, so this
   * stays meaningful when the machine is shared and absolute times drift.
   */
  ratio: number;
}

export interface Timing {
  medianMs: number;
  p95Ms: number;
  /** Heap retained by one call's result (tree or extracted data); exact only with --expose-gc. */
  heapMb: number;
}

interface Case {
  page: 'search' | 'product';
  layout: string;
  html: string;
  extract: (html: string) => unknown;
}

const ORIGIN = 'https://www.amazon.com';

function cases(): Case[] {
  const search = (['classic', 'grid', 'legacy'] as SearchLayout[]).map((layout) => ({
    page: 'search' as const,
    layout,
    html: renderSearchPage({ keyword: 'wireless headphones', layout, size: 'full' }).html,
    extract: (html: string) => parseSearchPage(html, { origin: ORIGIN, keyword: 'wireless headphones', page: 1 }),
  }));
  const product = (['desktop', 'apex', 'mobile'] as ProductLayout[]).map((layout) => ({
    page: 'product' as const,
    layout,
    html: renderProductPage({ asin: 'B0SIM00004', layout, size: 'full' })!.html,
    extract: (html: string) => parseProductPage(html, { origin: ORIGIN, asin: 'B0SIM00004' }),
  }));
  // The same pages with their script/style bodies already removed: what is left is markup only, so
  // these rows show the cost of extraction without the benefit of skipping raw text.
  const markupOnly = [search[0], product[0]].map((c) => ({
    ...(c as Case),
    layout: `${(c as Case).layout} (markup only)`,
    html: rawTextSegments((c as Case).html).join(''),
  }));
  return [...search, ...product, ...markupOnly];
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapHeldBy(fn: () => unknown): number {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const result = fn();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  // Reading `result` after the GC keeps it alive through the measurement.
  return result === undefined ? 0 : Math.max(0, after - before) / 1024 / 1024;
}

function timing(samples: number[], heapMb: number): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: percentile(sorted, 50), p95Ms: percentile(sorted, 95), heapMb };
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function runParserBench(options: { iterations?: number; warmup?: number } = {}): Promise<BenchResult[]> {
  const iterations = options.iterations ?? Number(process.env.BENCH_ITERATIONS ?? 30);
  const warmup = options.warmup ?? 5;
  const results: BenchResult[] = [];
  for (const c of cases()) {
    const baseline = (): unknown => parse(c.html);
    const extraction = (): unknown => c.extract(c.html);
    const block = (): unknown => detectBlock({ status: 200, html: c.html });
    for (let i = 0; i < warmup; i++) {
      baseline();
      extraction();
      block();
    }
    const samples = { baseline: [] as number[], extraction: [] as number[], block: [] as number[] };
    for (let i = 0; i < iterations; i++) {
      // Alternate the order so neither side always runs right after a GC-heavy tree build.
      if (i % 2 === 0) {
        samples.baseline.push(time(baseline));
        samples.extraction.push(time(extraction));
      } else {
        samples.extraction.push(time(extraction));
        samples.baseline.push(time(baseline));
      }
      samples.block.push(time(block));
    }
    const base = timing(samples.baseline, heapHeldBy(baseline));
    const extract = timing(samples.extraction, heapHeldBy(extraction));
    const ratios = samples.extraction.map((ms, i) => ms / (samples.baseline[i] as number)).sort((a, b) => a - b);
    results.push({
      page: c.page,
      layout: c.layout,
      bytes: c.html.length,
      iterations,
      baseline: base,
      extraction: extract,
      detectBlock: timing(samples.block, heapHeldBy(block)),
      ratio: percentile(ratios, 50),
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}

function printTable(results: BenchResult[]): void {
  const f = (n: number, digits = 1): string => n.toFixed(digits);
  const rows = [
    ['page', 'layout', 'MB', 'parse5 med', 'parse5 p95', 'extract med', 'extract p95', 'ratio', 'detectBlock med', 'parse5 retained MB', 'extract retained MB'],
    ...results.map((r) => [
      r.page,
      r.layout,
      f(r.bytes / 1e6, 2),
      f(r.baseline.medianMs),
      f(r.baseline.p95Ms),
      f(r.extraction.medianMs),
      f(r.extraction.p95Ms),
      f(r.ratio, 2),
      f(r.detectBlock.medianMs, 3),
      f(r.baseline.heapMb),
      f(r.extraction.heapMb, 3),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  console.log(
    `\n${results[0]?.iterations ?? 0} iterations per page after warm-up; times in ms; node ${process.version}${gc ? '' : ' (run with --expose-gc for exact heap figures)'}`,
  );
}

export async function main(): Promise<void> {
  printTable(await runParserBench());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
