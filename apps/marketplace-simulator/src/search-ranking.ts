import { searchCatalog, type SearchEntry, type SearchOptions, type SearchResults } from './catalog.ts';

/** A new order for a keyword's organic results over all its pages (same length or shorter). */
export type OrganicOrder = (organic: readonly string[]) => string[];

/**
 * The results of `page` with the keyword's organic results reordered over all its pages: the
 * order sees the organic ASINs of pages 1…maxPages as one list, so a product can move from one page
 * to the next and ranks stay ranks as the crawler counts them across pages. Sponsored entries and
 * widgets keep their places; each page keeps its number of organic results (the last page may lose
 * those the order drops).
 */
export function reorderedResults(keyword: string, page: number, options: SearchOptions, order: OrganicOrder): SearchResults {
  const results = searchCatalog(keyword, page, options);
  if (results.entries.length === 0) return results;
  const pages = Array.from({ length: options.maxPages }, (_, i) => (i + 1 === page ? results : searchCatalog(keyword, i + 1, options)));
  const organicOf = (r: SearchResults): string[] => r.entries.filter((e) => !e.sponsored).map((e) => e.asin);
  const perPage = organicOf(results).length;
  const ordered = order(pages.flatMap(organicOf));
  const mine = ordered.slice((page - 1) * perPage, page * perPage);
  const entries: SearchEntry[] = [];
  let next = 0;
  for (const entry of results.entries) {
    if (entry.sponsored) entries.push(entry);
    else if (next < mine.length) entries.push({ asin: mine[next++] as string, sponsored: false });
  }
  return { ...results, entries };
}

/**
 * `organic` with each placed product at its rank (1-based, lowest first): taken out of where it
 * was and put in, the others moving down. A rank past the end of the results takes the product out
 * of them; the list keeps its length.
 */
export function placeRanks(organic: readonly string[], placed: readonly { asin: string; rank: number }[]): string[] {
  if (placed.length === 0) return [...organic];
  const asins = new Set(placed.map((p) => p.asin));
  const out = organic.filter((asin) => !asins.has(asin));
  for (const { asin, rank } of [...placed].sort((a, b) => a.rank - b.rank)) {
    if (rank - 1 <= out.length) out.splice(rank - 1, 0, asin);
  }
  return out.slice(0, organic.length);
}

/** `organic` ordered by place + shift (stable), as drift moves products up and down. */
export function shiftPlaces(organic: readonly string[], shift: (asin: string) => number): string[] {
  return organic
    .map((asin, i) => ({ asin, key: i + shift(asin) }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.asin);
}
