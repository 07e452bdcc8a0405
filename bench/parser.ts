// Parser benchmark: streaming extraction vs a parse5 tree build of the same 1–3 MB page.
// Run: pnpm bench parser   (BENCH_ROUNDS=3 rounds of BENCH_ITERATIONS=10 per page by default)
import {
  detectBlock,
  parseBestsellersPage,
  parseCategoryPage,
  parseOffersPage,
  parseProductPage,
  parseReviewsPage,
  parseSearchPage,
  parseSellerPage,
} from '@crawl/marketplace';
// An internal of the parser (not part of its API), used only to build the markup-only comparison.
import { rawTextSegments } from '../packages/marketplace/src/html/raw-text.ts';
import {
  AOD_LAYOUTS,
  BESTSELLERS_LAYOUTS,
  getProduct,
  renderAodFragment,
  renderOfferListingPage,
  renderSellerPage,
  SELLER_LAYOUTS,
  sellerIdOf,
  sellerProfile,
  browseNode,
  REAL_PAGE_SHAPES,
  renderBestsellersPage,
  renderCategoryListing,
  renderProductPage,
  renderReviewsPage,
  renderSearchPage,
  REVIEWS_LAYOUTS,
  SEEDED_MARKET,
  type ProductLayout,
  type SearchLayout,
} from '@crawl/marketplace-simulator';
import { parse } from 'parse5';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

/** The page kinds timed: each kind's parser against a parse5 tree build of the same page. */
export type BenchPage = 'search' | 'product' | 'bestsellers' | 'category' | 'reviews' | 'offers' | 'seller';

export interface BenchResult {
  page: BenchPage;
  layout: string;
  /** Modelled on captured pages (a shape other than the classic scripted filler). */
  realShaped: boolean;
  bytes: number;
  shape: PageStats;
  iterations: number;
  /** parse5 `parse()` of the same string. */
  baseline: Timing;
  /** parseSearchPage / parseProductPage. */
  extraction: Timing;
  detectBlock: Timing;
  /**
   * Median over rounds of each round's median per-iteration ratio extraction/baseline. Each pair
   * runs back to back (order alternating), so this stays meaningful on a shared machine.
   */
  ratio: number;
  roundRatios: number[];
}

/** What the page is made of: script/style share, tags, attributes. */
export interface PageStats {
  rawShare: number;
  tags: number;
  attributes: number;
  bytesPerTag: number;
}

export interface Timing {
  medianMs: number;
  p95Ms: number;
  /** Heap retained by one call's result (tree or extracted data); exact only with --expose-gc. */
  heapMb: number;
}

interface Case {
  page: BenchPage;
  layout: string;
  realShaped?: boolean;
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
  // Pages shaped like captured ones: no script, heavy inline SVG, JSON state blobs; dense markup.
  const real = REAL_PAGE_SHAPES.flatMap((shape) => [
    {
      page: 'search' as const,
      layout: `classic, ${shape}`,
      realShaped: true,
      html: renderSearchPage({ keyword: 'wireless headphones', layout: 'classic', size: 'full', shape }).html,
      extract: (html: string) => parseSearchPage(html, { origin: ORIGIN, keyword: 'wireless headphones', page: 1 }),
    },
    {
      page: 'product' as const,
      layout: `desktop, ${shape}`,
      realShaped: true,
      html: renderProductPage({ asin: 'B0SIM00004', layout: 'desktop', size: 'full', shape })!.html,
      extract: (html: string) => parseProductPage(html, { origin: ORIGIN, asin: 'B0SIM00004' }),
    },
  ]);
  const node = browseNode('172541');
  const bestsellers = BESTSELLERS_LAYOUTS.map((layout) => ({
    page: 'bestsellers' as const,
    layout,
    html: renderBestsellersPage({ node, list: 'bestsellers', page: 1, domain: 'amazon.com', size: 'full', market: SEEDED_MARKET, layout }).html,
    extract: (html: string) => parseBestsellersPage(html, { origin: ORIGIN, page: 1 }),
  }));
  const category = (['classic', 'grid'] as SearchLayout[]).map((layout) => ({
    page: 'category' as const,
    layout,
    html: renderCategoryListing({ node, page: 1, domain: 'amazon.com', size: 'full', market: SEEDED_MARKET, layout }).html,
    extract: (html: string) => parseCategoryPage(html, { origin: ORIGIN, page: 1 }),
  }));
  const reviews = REVIEWS_LAYOUTS.map((layout) => ({
    page: 'reviews' as const,
    layout,
    html: renderReviewsPage({ asin: 'B0SIM00004', query: { filter: 'all_stars', sort: 'helpful', verifiedOnly: false }, page: 1, layout, size: 'full' })!.html,
    extract: (html: string) => parseReviewsPage(html, { origin: ORIGIN, asin: 'B0SIM00004' }),
  }));
  // B0SIM00005 lists 22 offers: the first page of the view holds the buy box and ten more.
  const offered = getProduct('B0SIM00005')!;
  const offers = [
    ...AOD_LAYOUTS.map((layout) => ({
      page: 'offers' as const,
      layout: `aod ${layout}`,
      html: renderAodFragment({ product: offered, domain: 'amazon.com', page: 1, size: 'full', market: SEEDED_MARKET, layout }).html,
      extract: (html: string) => parseOffersPage(html, { origin: ORIGIN, asin: 'B0SIM00005' }),
    })),
    {
      page: 'offers' as const,
      layout: 'offer-listing',
      html: renderOfferListingPage({ product: offered, domain: 'amazon.com', page: 1, size: 'full', market: SEEDED_MARKET }).html,
      extract: (html: string) => parseOffersPage(html, { origin: ORIGIN, asin: 'B0SIM00005' }),
    },
  ];
  const sellerId = sellerIdOf('Vintage Shelf');
  const seller = SELLER_LAYOUTS.map((layout) => ({
    page: 'seller' as const,
    layout,
    html: renderSellerPage({ seller: sellerProfile(sellerId, 'amazon.com')!, domain: 'amazon.com', size: 'full', layout }).html,
    extract: (html: string) => parseSellerPage(html, { origin: ORIGIN, sellerId }),
  }));
  return [...search, ...product, ...markupOnly, ...real, ...bestsellers, ...category, ...reviews, ...offers, ...seller];
}

interface TreeNode {
  nodeName: string;
  attrs?: unknown[];
  value?: string;
  childNodes?: TreeNode[];
  content?: TreeNode;
}

/** Counts on parse5's tree of the page (outside the timed part); raw text is script/style content. */
function pageStats(html: string): PageStats {
  let tags = 0;
  let attributes = 0;
  let raw = 0;
  const walk = (node: TreeNode, inRaw: boolean): void => {
    if (node.attrs !== undefined) {
      tags++;
      attributes += node.attrs.length;
    }
    if (inRaw && node.nodeName === '#text') raw += node.value?.length ?? 0;
    const rawChildren = node.nodeName === 'script' || node.nodeName === 'style';
    for (const child of node.childNodes ?? []) walk(child, rawChildren);
    if (node.content) walk(node.content, false);
  };
  walk(parse(html) as unknown as TreeNode, false);
  return { rawShare: raw / html.length, tags, attributes, bytesPerTag: html.length / tags };
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

function load(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
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

export async function runParserBench(options: { iterations?: number; warmup?: number; rounds?: number } = {}): Promise<BenchResult[]> {
  const iterations = options.iterations ?? Number(process.env.BENCH_ITERATIONS ?? 10);
  const warmup = options.warmup ?? 5;
  const rounds = options.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const all = cases();
  const samples = all.map(() => ({ baseline: [] as number[], extraction: [] as number[], block: [] as number[], roundRatios: [] as number[] }));
  for (const c of all) {
    for (let i = 0; i < warmup; i++) {
      parse(c.html);
      c.extract(c.html);
    }
  }
  for (let round = 1; round <= rounds; round++) {
    console.log(`round ${round}/${rounds}: load average at start ${load()}`);
    for (const [index, c] of all.entries()) {
      const s = samples[index]!;
      const ratios: number[] = [];
      for (let i = 0; i < iterations; i++) {
        // Alternate the order so neither side always runs right after a GC-heavy tree build.
        let base: number;
        let extract: number;
        if ((i + round) % 2 === 0) {
          base = time(() => parse(c.html));
          extract = time(() => c.extract(c.html));
        } else {
          extract = time(() => c.extract(c.html));
          base = time(() => parse(c.html));
        }
        s.baseline.push(base);
        s.extraction.push(extract);
        ratios.push(extract / base);
        s.block.push(time(() => detectBlock({ status: 200, html: c.html })));
      }
      s.roundRatios.push(median(ratios));
      await new Promise((resolve) => setImmediate(resolve));
    }
    console.log(`round ${round}/${rounds}: load average at end ${load()}`);
  }
  return all.map((c, index) => {
    const s = samples[index]!;
    return {
      page: c.page,
      layout: c.layout,
      realShaped: c.realShaped ?? false,
      bytes: c.html.length,
      shape: pageStats(c.html),
      iterations: iterations * rounds,
      baseline: timing(
        s.baseline,
        heapHeldBy(() => parse(c.html)),
      ),
      extraction: timing(
        s.extraction,
        heapHeldBy(() => c.extract(c.html)),
      ),
      detectBlock: timing(
        s.block,
        heapHeldBy(() => detectBlock({ status: 200, html: c.html })),
      ),
      ratio: median(s.roundRatios),
      roundRatios: s.roundRatios,
    };
  });
}

/** The goal figure: per round, the median ratio over the real-shaped pages; then the median over rounds. */
export function realShapedRatio(results: BenchResult[]): { ratio: number; perRound: number[] } {
  const real = results.filter((r) => r.realShaped);
  const rounds = real[0]?.roundRatios.length ?? 0;
  const perRound = Array.from({ length: rounds }, (_, round) => median(real.map((r) => r.roundRatios[round] as number)));
  return { ratio: perRound.length === 0 ? Number.NaN : median(perRound), perRound };
}

function printTable(results: BenchResult[]): void {
  const f = (n: number, digits = 1): string => n.toFixed(digits);
  const rows = [
    [
      'page',
      'layout',
      'MB',
      'script/style',
      'tags',
      'attrs',
      'B/tag',
      'parse5 med',
      'parse5 p95',
      'extract med',
      'extract p95',
      'ratio',
      'detectBlock med',
      'parse5 retained MB',
      'extract retained MB',
    ],
    ...results.map((r) => [
      r.page,
      r.layout,
      f(r.bytes / 1e6, 2),
      `${f(r.shape.rawShare * 100, 0)}%`,
      String(r.shape.tags),
      String(r.shape.attributes),
      f(r.shape.bytesPerTag, 0),
      f(r.baseline.medianMs),
      f(r.baseline.p95Ms),
      f(r.extraction.medianMs),
      f(r.extraction.p95Ms),
      `${f(r.ratio, 2)} (${r.roundRatios.map((x) => f(x, 2)).join('/')})`,
      f(r.detectBlock.medianMs, 3),
      f(r.baseline.heapMb),
      f(r.extraction.heapMb, 3),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
  console.log(
    `\n${results[0]?.iterations ?? 0} iterations per page after warm-up, in ${results[0]?.roundRatios.length ?? 0} rounds (ratio: median of per-round medians, rounds in brackets); times in ms; node ${process.version}${gc ? '' : ' (run with --expose-gc for exact heap figures)'}`,
  );
}

export async function main(): Promise<void> {
  const results = await runParserBench();
  printTable(results);
  const goal = realShapedRatio(results);
  console.log(
    `real-shaped pages, extraction ÷ parse5 parse(): median ${goal.ratio.toFixed(2)} (per round ${goal.perRound.map((x) => x.toFixed(2)).join(', ')}); goal ≤ 0.5`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
