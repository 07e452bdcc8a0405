import { parseBestsellersPage, parseCategoryPage, parseOffersPage, parseReviewsPage, parseSellerPage, parseSuggestions } from '@crawl/marketplace';

/**
 * The parsers of the page kinds besides product and search: a pure function from a page's text
 * and the options of what was asked to what the page holds. Each job type's crawl reads its pages
 * through `PageParser.read(kind, …)`, inline or on a parse thread.
 */
export const KIND_READERS = {
  // One entry per page kind: `<kind>: parse<Kind>Page,`
  reviews: parseReviewsPage,
  bestsellers: parseBestsellersPage,
  category: parseCategoryPage,
  autocomplete: parseSuggestions,
  offers: parseOffersPage,
  seller: parseSellerPage,
} satisfies Record<string, (html: string, options: never) => unknown>;

export type PageKind = keyof typeof KIND_READERS;
export type KindOptions<K extends PageKind> = Parameters<(typeof KIND_READERS)[K]>[1];
export type KindReading<K extends PageKind> = ReturnType<(typeof KIND_READERS)[K]>;

/** Runs a kind's parser on its page text; the registry's types say what goes in and comes out. */
export function readKind<K extends PageKind>(kind: K, html: string, options: KindOptions<K>): KindReading<K> {
  const reader = KIND_READERS[kind] as (html: string, options: KindOptions<K>) => KindReading<K>;
  return reader(html, options);
}
