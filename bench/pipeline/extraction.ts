// The parse-bound ceiling's denominator: median time of one extraction of the served pages, through
// the parse threads' own entry (the page's bytes in, its record out), in a warm loop.
import { extractPage } from '../../services/crawler-worker/src/features/parsing/extract-page.ts';
import { median } from '../storage/measure.ts';
import { asinOf, SETTINGS } from './settings.ts';

export interface ServedPage {
  asin: string;
  /** The body as served, and the charset its content type names. */
  bytes: Uint8Array;
  charset: string;
}

/** The distinct pages as the simulator serves them (fetched once). */
export async function fetchServedPages(baseUrl: string): Promise<ServedPage[]> {
  const pages: ServedPage[] = [];
  for (let i = 0; i < SETTINGS.distinctPages; i += 1) {
    const asin = asinOf(i);
    const response = await fetch(`${baseUrl}/dp/${asin}`);
    if (!response.ok) throw new Error(`simulator answered ${response.status} for ${asin}`);
    const charset = /charset=["']?([\w-]+)/i.exec(response.headers.get('content-type') ?? '')?.[1]?.toLowerCase() ?? 'utf-8';
    pages.push({ asin, bytes: new Uint8Array(await response.arrayBuffer()), charset });
  }
  return pages;
}

/** Median ms of a parse thread's extraction over `passes` passes of the pages, after one untimed pass. */
export function medianExtractionMs(pages: readonly ServedPage[], passes = SETTINGS.extractionPasses): number {
  const extract = (page: ServedPage) =>
    extractPage({ kind: 'product', page: page.bytes, charset: page.charset, options: { origin: 'https://www.amazon.com', asin: page.asin } });
  for (const page of pages) extract(page);
  const samples: number[] = [];
  for (let pass = 0; pass < passes; pass += 1) {
    for (const page of pages) {
      const start = performance.now();
      extract(page);
      samples.push(performance.now() - start);
    }
  }
  return median(samples);
}
