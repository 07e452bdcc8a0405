import {
  parseSearchPage,
  readProductPage,
  type ParseProductPageOptions,
  type ParseSearchPageOptions,
  type ProductReading,
  type SearchPage,
} from '@crawl/marketplace';
import { extractPage, type ParseTask } from './extract-page.ts';
import { type KindOptions, type KindReading, type PageKind, readKind } from './kind-readers.ts';

/**
 * A fetched page: its text, and optionally the bytes it was decoded from with their charset. Both
 * parsers then read the bytes and never the text (the fetcher decodes it only if read); a parse
 * thread takes them, so they are emptied here once moved.
 */
export interface PageSource {
  html: string;
  body?: Uint8Array | undefined;
  charset?: string | undefined;
}

/** Extraction of a fetched page, wherever it runs (this thread or a pool of worker threads). */
export interface PageParser {
  /** `signal` abandons the page (the worker is stopping); a thread drops it, inline parsing cannot. */
  product(page: PageSource, options: ParseProductPageOptions, signal?: AbortSignal): Promise<ProductReading>;
  search(page: PageSource, options: ParseSearchPageOptions, signal?: AbortSignal): Promise<SearchPage>;
  /** A page of one of the other kinds (reviews, offers, best sellers, …), read by its parser in KIND_READERS. */
  read<K extends PageKind>(kind: K, page: PageSource, options: KindOptions<K>, signal?: AbortSignal): Promise<KindReading<K>>;
  close(): Promise<void>;
}

const hasBytes = (page: PageSource): page is PageSource & { body: Uint8Array } => page.body !== undefined && page.body.byteLength > 0;

/**
 * Parses on the calling thread (PARSE_THREADS=0, and tests): from the fetched bytes when the page
 * has them, as a parse thread does (a UTF-8 page is then never decoded whole), else from its text.
 */
export const inlinePageParser: PageParser = {
  product: async (page, options) =>
    hasBytes(page)
      ? (extractPage({ kind: 'product', page: page.body, charset: page.charset ?? 'utf-8', options }) as ProductReading)
      : readProductPage(page.html, options),
  search: async (page, options) =>
    hasBytes(page)
      ? (extractPage({ kind: 'search', page: page.body, charset: page.charset ?? 'utf-8', options }) as SearchPage)
      : parseSearchPage(page.html, options),
  read: async (kind, page, options) =>
    hasBytes(page)
      ? (extractPage({ kind, page: page.body, charset: page.charset ?? 'utf-8', options } as ParseTask) as never)
      : readKind(kind, page.html, options),
  close: async () => undefined,
};
