import type { MarketplaceDomain } from '@crawl/marketplace';
import { getProduct, searchCatalog, seededProduct, type CatalogProduct, type SearchOptions, type SearchResults } from './catalog.ts';
import { applyOverride, overriddenCardExtras } from './control/apply-override.ts';
import type { MarketOverrides } from './control/overrides.ts';
import { copyProduct, driftedCardExtras, driftedProduct, searchShift, stepAt, type DriftSettings } from './drift.ts';
import { cardExtras, type CardExtras } from './search-extras.ts';
import { placeRanks, reorderedResults, shiftPlaces } from './search-ranking.ts';

/** What the pages of one storefront show at one moment: its products, their search cards, the results. */
export interface Market {
  /** The product as shown; undefined for unknown ASINs. */
  product(asin: string): CatalogProduct | undefined;
  /** What a search card shows beside the product (badges, coupon, delivery, bought line). */
  cardExtras(asin: string, hasOffer: boolean): CardExtras;
  /** A keyword's results page, in relevance order. */
  search(keyword: string, page: number, options: SearchOptions): SearchResults;
}

/** The catalog as generated: the same at every moment, on every storefront. */
export const SEEDED_MARKET: Market = { product: getProduct, cardExtras, search: searchCatalog };

export interface MarketSettings {
  /** The simulator's seed: the same seed at the same step serves the same pages. */
  seed: number;
  /** Off when absent: the catalog as generated. */
  drift?: DriftSettings;
  overrides?: MarketOverrides;
}

/**
 * The market of `domain` at `time`: the generated catalog, drifted to the step `time` falls in
 * (when drift is on), with the control routes' overrides over both.
 */
export function marketAt(settings: MarketSettings, domain: MarketplaceDomain, time: Date): Market {
  const { seed, drift, overrides } = settings;
  const step = drift ? stepAt(time, drift.stepMs) : 0;
  const products = new Map<string, CatalogProduct | undefined>();

  const product = (asin: string): CatalogProduct | undefined => {
    if (products.has(asin)) return products.get(asin);
    const seeded = seededProduct(asin);
    let shown: CatalogProduct | undefined;
    if (seeded) {
      shown = drift ? driftedProduct(seeded, seed, step, drift.changeShare) : copyProduct(seeded.product);
      const override = overrides?.productOn(asin, domain);
      if (override) shown = applyOverride(shown, seeded, override);
    }
    products.set(asin, shown);
    return shown;
  };

  return {
    product,
    cardExtras(asin, hasOffer) {
      let extras = cardExtras(asin, hasOffer);
      if (drift) extras = driftedCardExtras(extras, asin, hasOffer, seed, step, drift.changeShare);
      const override = overrides?.productOn(asin, domain);
      return override ? overriddenCardExtras(extras, override, hasOffer) : extras;
    },
    search(keyword, page, options) {
      const placed = overrides?.searchRanks(keyword) ?? [];
      if (!drift && placed.length === 0) return searchCatalog(keyword, page, options);
      return reorderedResults(keyword, page, options, (organic) => {
        const shifted = drift ? shiftPlaces(organic, (asin) => searchShift(asin, seed, step, drift.changeShare)) : [...organic];
        return placeRanks(shifted, placed);
      });
    },
  };
}
