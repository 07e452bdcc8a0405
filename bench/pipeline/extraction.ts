// The parse-bound ceiling's denominator: median time of one inline extraction of the served pages.
import { parseProductPage } from '@crawl/marketplace';
import { median } from '../storage/measure.ts';
import { asinOf, SETTINGS } from './settings.ts';

export interface ServedPage {
  asin: string;
  html: string;
}

/** The distinct pages as the simulator serves them (fetched once). */
export async function fetchServedPages(baseUrl: string): Promise<ServedPage[]> {
  const pages: ServedPage[] = [];
  for (let i = 0; i < SETTINGS.distinctPages; i += 1) {
    const asin = asinOf(i);
    const response = await fetch(`${baseUrl}/dp/${asin}`);
    if (!response.ok) throw new Error(`simulator answered ${response.status} for ${asin}`);
    pages.push({ asin, html: await response.text() });
  }
  return pages;
}

/** Median ms of `parseProductPage` over `passes` passes of the pages, after one untimed pass. */
export function medianExtractionMs(pages: readonly ServedPage[], passes = SETTINGS.extractionPasses): number {
  const extract = (page: ServedPage) => parseProductPage(page.html, { origin: 'https://www.amazon.com', asin: page.asin });
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
