import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';
import type { Book, CatalogProduct } from './catalog.ts';
import { localizedCategory } from './categories.ts';
import { priceIn, type Money } from './money.ts';
import { textsFor, type Texts } from './texts.ts';

/** A catalog product as one storefront shows it: local money, language and wording. */
export interface StorefrontProduct {
  product: CatalogProduct;
  domain: MarketplaceDomain;
  texts: Texts;
  price?: Money;
  listPrice?: Money;
  /** Breadcrumb in the storefront language. */
  categories: [string, string];
  availability: string;
  seller: string;
  /** Books: the product's book data (same as `product.book`). */
  book?: Book;
}

/**
 * `currency`: one the shopper chose to see prices in (the storefront's currency preference); the
 * storefront's own by default.
 */
export function storefrontProduct(product: CatalogProduct, domain: MarketplaceDomain, language?: string, currency?: string): StorefrontProduct {
  const shown = currency ?? MARKETPLACES[domain].currency;
  const texts = textsFor(domain, language);
  const view: StorefrontProduct = {
    product,
    domain,
    texts,
    categories: [localizedCategory(product.category.path[0], texts.language), localizedCategory(product.category.path[1], texts.language)],
    availability:
      product.availabilityText ??
      (product.stock === 'unavailable' ? texts.unavailable : product.stock === 'low_stock' ? texts.onlyLeft(product.stockLeft ?? 1) : texts.inStock),
    seller: product.thirdPartySeller ?? texts.amazonSeller,
  };
  if (product.book) view.book = product.book;
  if (product.priceUsdCents !== undefined) {
    // A price set in the shown currency is shown as set; in another it is converted like any other.
    const set = product.setPrices;
    const price = set?.price?.currency === shown ? set.price : priceIn(product.priceUsdCents, shown);
    view.price = price;
    if (product.listPriceUsdCents !== undefined) {
      const list = set?.listPrice?.currency === shown ? set.listPrice : priceIn(product.listPriceUsdCents, shown);
      if (list.minor > price.minor) view.listPrice = list;
    }
  }
  return view;
}

export function ratingText(view: StorefrontProduct): string | undefined {
  const rating = view.product.rating;
  return rating === undefined ? undefined : view.texts.rating(rating.toFixed(1).replace('.', view.texts.decimal));
}
