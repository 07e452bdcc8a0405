import {
  parseProductPage,
  parseSearchPage,
  type ParseProductPageOptions,
  type ParseSearchPageOptions,
  type ProductDetails,
  type SearchPage,
} from '@crawl/marketplace';

/** Extraction of a fetched page, wherever it runs (this thread or a pool of worker threads). */
export interface PageParser {
  /** `signal` abandons the page (the worker is stopping); a thread drops it, inline parsing cannot. */
  product(html: string, options: ParseProductPageOptions, signal?: AbortSignal): Promise<ProductDetails>;
  search(html: string, options: ParseSearchPageOptions, signal?: AbortSignal): Promise<SearchPage>;
  close(): Promise<void>;
}

/** Parses on the calling thread (PARSE_THREADS=0, and tests). */
export const inlinePageParser: PageParser = {
  product: async (html, options) => parseProductPage(html, options),
  search: async (html, options) => parseSearchPage(html, options),
  close: async () => undefined,
};
