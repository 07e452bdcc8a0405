import type { MarketplaceDomain } from '@crawl/marketplace';
import type { Money } from '../money.ts';

/**
 * What the control routes set on a product. Absent fields leave the product as the catalog (and
 * the drift) has it; `null` takes a thing away (the list price, a third-party seller, the coupon).
 */
export interface ProductOverride {
  /** The offer's price, in the currency of the storefront it was set for (USD for all of them). */
  price?: Money;
  listPrice?: Money | null;
  /** false: out of stock, no offer; true: in stock with an offer. */
  inStock?: boolean;
  /** In stock with only this many left ("Only 3 left in stock"). */
  stockLeft?: number;
  /** The availability message in place of the stock's own wording. */
  availability?: string;
  /** The buy box's third-party seller; null: sold by the storefront itself. */
  seller?: string | null;
  /** Coupon percent; null: no coupon. */
  coupon?: number | null;
  deal?: boolean;
}

/** Overrides set for every storefront are kept under this key; a storefront's own ones win over them. */
export const EVERY_STOREFRONT = 'all';
export type OverrideScope = MarketplaceDomain | typeof EVERY_STOREFRONT;

/** Enough for any test or demo; past it a set is refused, so a runaway client cannot grow the process. */
export const MAX_PRODUCT_OVERRIDES = 1000;
export const MAX_SEARCH_RANKS = 1000;

export interface SearchRank {
  keyword: string;
  asin: string;
  rank: number;
}

export interface OverridesSnapshot {
  products: { asin: string; scope: OverrideScope; override: ProductOverride }[];
  searchRanks: SearchRank[];
}

/** The key search results are computed by (searchCatalog trims and lowercases the same way). */
export function keywordKey(keyword: string): string {
  return keyword.trim().toLowerCase();
}

/** The overrides the control routes have set, in memory, until reset. */
export class MarketOverrides {
  readonly #products = new Map<string, Map<OverrideScope, ProductOverride>>();
  /** keyword key → rank → ASIN: a rank of a keyword holds one product, a product one rank. */
  readonly #ranks = new Map<string, Map<number, string>>();

  /** Merges `override` into what was set before for the product on `scope`; undefined when the limit is reached. */
  setProduct(asin: string, scope: OverrideScope, override: ProductOverride): ProductOverride | undefined {
    let scopes = this.#products.get(asin);
    const before = scopes?.get(scope);
    if (before === undefined && this.productCount() >= MAX_PRODUCT_OVERRIDES) return undefined;
    const merged = { ...before, ...override };
    // Stock set one way forgets how it was set before: in stock, out of stock or running low.
    if (override.inStock !== undefined && override.stockLeft === undefined) delete merged.stockLeft;
    if (override.stockLeft !== undefined && override.inStock === undefined) delete merged.inStock;
    if (!scopes) {
      scopes = new Map();
      this.#products.set(asin, scopes);
    }
    scopes.set(scope, merged);
    return merged;
  }

  clearProduct(asin: string): boolean {
    return this.#products.delete(asin);
  }

  /** The product's overrides on `domain`: those for every storefront, then the storefront's own over them. */
  productOn(asin: string, domain: MarketplaceDomain): ProductOverride | undefined {
    const scopes = this.#products.get(asin);
    if (!scopes) return undefined;
    const every = scopes.get(EVERY_STOREFRONT);
    const own = scopes.get(domain);
    if (!own) return every;
    if (!every) return own;
    // Field by field: a price set for the storefront (in its currency) beside a list price set for all of them (in USD).
    const merged = { ...every, ...own };
    if (own.inStock !== undefined && own.stockLeft === undefined) delete merged.stockLeft;
    if (own.stockLeft !== undefined && own.inStock === undefined) delete merged.inStock;
    return merged;
  }

  /** Puts `asin` at `rank` of the keyword's organic results, in place of what held that rank; false when the limit is reached. */
  setSearchRank({ keyword, asin, rank }: SearchRank): boolean {
    const key = keywordKey(keyword);
    const ranks = this.#ranks.get(key) ?? new Map<number, string>();
    const previous = [...ranks].find(([, held]) => held === asin)?.[0];
    const adds = previous === undefined && !ranks.has(rank);
    if (adds && this.rankCount() >= MAX_SEARCH_RANKS) return false;
    if (previous !== undefined) ranks.delete(previous);
    ranks.set(rank, asin);
    this.#ranks.set(key, ranks);
    return true;
  }

  /** The keyword's placed products, lowest rank first. */
  searchRanks(keyword: string): { asin: string; rank: number }[] {
    const ranks = this.#ranks.get(keywordKey(keyword));
    if (!ranks) return [];
    return [...ranks].map(([rank, asin]) => ({ asin, rank })).sort((a, b) => a.rank - b.rank);
  }

  clear(): void {
    this.#products.clear();
    this.#ranks.clear();
  }

  snapshot(): OverridesSnapshot {
    return {
      products: [...this.#products].flatMap(([asin, scopes]) => [...scopes].map(([scope, override]) => ({ asin, scope, override }))),
      searchRanks: [...this.#ranks].flatMap(([keyword, ranks]) => [...ranks].map(([rank, asin]) => ({ keyword, asin, rank }))),
    };
  }

  private rankCount(): number {
    let count = 0;
    for (const ranks of this.#ranks.values()) count += ranks.size;
    return count;
  }

  private productCount(): number {
    let count = 0;
    for (const scopes of this.#products.values()) count += scopes.size;
    return count;
  }
}
