import {
  parseProductPage,
  parseSearchPage,
  type ParseProductPageOptions,
  type ParseSearchPageOptions,
  type ProductDetails,
  type SearchPage,
} from '@crawl/marketplace';

/**
 * A fetched page: its text, and optionally the bytes it was decoded from with their charset (a parse
 * thread then takes the bytes instead of a copy of the text; they are emptied here once moved).
 */
export interface PageSource {
  html: string;
  body?: Uint8Array | undefined;
  charset?: string | undefined;
}

/** Extraction of a fetched page, wherever it runs (this thread or a pool of worker threads). */
export interface PageParser {
  /** `signal` abandons the page (the worker is stopping); a thread drops it, inline parsing cannot. */
  product(page: PageSource, options: ParseProductPageOptions, signal?: AbortSignal): Promise<ProductDetails>;
  search(page: PageSource, options: ParseSearchPageOptions, signal?: AbortSignal): Promise<SearchPage>;
  close(): Promise<void>;
}

/** Parses on the calling thread (PARSE_THREADS=0, and tests). */
export const inlinePageParser: PageParser = {
  product: async (page, options) => parseProductPage(page.html, options),
  search: async (page, options) => parseSearchPage(page.html, options),
  close: async () => undefined,
};
