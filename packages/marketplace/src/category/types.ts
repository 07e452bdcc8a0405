import type { BestsellerCategory } from '../bestsellers/types.ts';
import type { SearchPage } from '../search/types.ts';

/** A category listing: a results page (read as search pages are) with the category it lists. */
export interface CategoryPage extends SearchPage {
  /** The category as the department list shows it selected. */
  categoryName?: string;
  /** The department list from the top category down to the selected one. */
  categoryPath?: BestsellerCategory[];
  /**
   * A results page that names the category it lists (the department list's selected entry). A
   * results page without one (a keyword search the storefront sent us to instead) is not the
   * listing asked for; nor is any other page.
   */
  recognized: boolean;
}

export interface ParseCategoryPageOptions {
  /** Storefront origin (`https://www.amazon.de`); item URLs are built on it. */
  origin: string;
  page?: number;
  /** Marketplace domain (`amazon.de`) when `origin` does not identify one, e.g. the simulator. */
  marketplace?: string;
}
