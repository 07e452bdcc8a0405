import type { ProductReading, SearchPage } from '@crawl/marketplace';
import type { ParserMetrics } from '@crawl/metrics';
import type { PageParser } from './page-parser.ts';

/** Fields a product page normally has: one going missing on many pages is a layout change. */
const PRODUCT_FIELDS = ['title', 'brand', 'price', 'rating', 'reviewCount', 'availability', 'features', 'images', 'categories'] as const;
/** The same for each organic search result. */
const SEARCH_ITEM_FIELDS = ['title', 'url', 'image', 'price', 'rating', 'reviewCount'] as const;

/**
 * A parser that reports each page's parse time and outcome, and the fields it found no value
 * for (an empty list counts as missing). Wraps whichever parser runs (inline or thread pool).
 */
export function measuredParser(parser: PageParser, metrics: ParserMetrics): PageParser {
  const timed = async <T>(kind: string, parse: () => Promise<T>, check: (parsed: T) => void): Promise<T> => {
    const started = performance.now();
    try {
      const parsed = await parse();
      metrics.pageParsed(kind, (performance.now() - started) / 1000, true);
      check(parsed);
      return parsed;
    } catch (error) {
      metrics.pageParsed(kind, (performance.now() - started) / 1000, false);
      throw error;
    }
  };
  return {
    product: (page, options, signal) =>
      timed(
        'product',
        () => parser.product(page, options, signal),
        ({ product }: ProductReading) => {
          for (const field of PRODUCT_FIELDS) if (isMissing(product[field])) metrics.fieldMissing('product', field);
        },
      ),
    search: (page, options, signal) =>
      timed(
        'search',
        () => parser.search(page, options, signal),
        (result: SearchPage) => {
          if (result.items.length === 0) metrics.fieldMissing('search', 'items');
          for (const item of result.items) {
            if (item.sponsored) continue;
            for (const field of SEARCH_ITEM_FIELDS) if (isMissing(item[field])) metrics.fieldMissing('search', field);
          }
        },
      ),
    read: (kind, page, options, signal) =>
      timed(
        kind,
        () => parser.read(kind, page, options, signal),
        () => undefined,
      ),
    close: () => parser.close(),
  };
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
