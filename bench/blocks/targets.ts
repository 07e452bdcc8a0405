// Distinct catalog ASINs for every cell and round: the simulator counts attempts per URL, so an
// ASIN crawled twice would start its second crawl at attempt 5 and draw other faults.
import { CATEGORIES, getProduct, makeCatalogAsin } from '@crawl/marketplace-simulator';

export class DistinctAsins {
  readonly #used = new Set<string>();
  #next = 0;

  /** `count` catalog ASINs never handed out before by this instance, all of products the simulator has. */
  take(count: number): string[] {
    const asins: string[] = [];
    while (asins.length < count) {
      const index = this.#next++;
      const asin = makeCatalogAsin(index % CATEGORIES.length, `bench-blocks-${index}`);
      if (this.#used.has(asin) || getProduct(asin) === undefined) continue;
      this.#used.add(asin);
      asins.push(asin);
    }
    return asins;
  }
}
