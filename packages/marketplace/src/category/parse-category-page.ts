import { pageText } from '../html/page-text.ts';
import { parseSearchPage } from '../search/parse-search-page.ts';
import { readDepartmentNav } from './department-nav.ts';
import type { CategoryPage, ParseCategoryPageOptions } from './types.ts';

/**
 * Reads a category listing (`/s?rh=n:<node>`): its items as a search results page's, and the
 * category from the department list. See docs/marketplace.md.
 */
export function parseCategoryPage(html: string | Uint8Array, options: ParseCategoryPageOptions): CategoryPage {
  const text = pageText(html);
  const results = parseSearchPage(html, options);
  const nav = readDepartmentNav(text);
  return { ...results, ...nav, recognized: results.recognized && nav.categoryName !== undefined };
}
