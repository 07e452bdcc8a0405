import type { CatalogProduct, SeededProduct } from '../catalog.ts';
import { setStock, withoutOffer } from '../drift.ts';
import { usdCentsOf } from '../money.ts';
import type { CardExtras } from '../search-extras.ts';
import type { ProductOverride } from './overrides.ts';

/**
 * `product` (as seeded, or as drifted) with the override over it. Changes `product` in place and
 * returns it: the caller hands in its own copy.
 */
export function applyOverride(product: CatalogProduct, seeded: SeededProduct, override: ProductOverride): CatalogProduct {
  if (override.inStock === false) setStock(product, seeded, 'unavailable');
  else if (override.stockLeft !== undefined) setStock(product, seeded, 'low_stock', override.stockLeft);
  else if (override.inStock === true) setStock(product, seeded, 'in_stock');
  if (override.availability !== undefined) product.availabilityText = override.availability;
  if (override.seller === null) delete product.thirdPartySeller;
  else if (override.seller !== undefined) product.thirdPartySeller = override.seller;

  if (product.stock === 'unavailable') {
    // No offer, so nothing priced or promoted shows, whatever was set.
    withoutOffer(product);
    return product;
  }
  const setPrices: NonNullable<CatalogProduct['setPrices']> = {};
  if (override.price !== undefined) {
    product.priceUsdCents = usdCentsOf(override.price);
    setPrices.price = override.price;
    const book = product.book;
    // A book's price is its shown format's: the swatch says the same as the buy box.
    const format = book?.formats.find((f) => f.format === book.selected);
    if (format) format.priceUsdCents = product.priceUsdCents;
  }
  if (override.listPrice === null) delete product.listPriceUsdCents;
  else if (override.listPrice !== undefined) {
    product.listPriceUsdCents = usdCentsOf(override.listPrice);
    setPrices.listPrice = override.listPrice;
  }
  if (setPrices.price || setPrices.listPrice) product.setPrices = setPrices;
  if (override.coupon === null) delete product.couponPercent;
  else if (override.coupon !== undefined) product.couponPercent = override.coupon;
  if (override.deal !== undefined) product.deal = override.deal;
  return product;
}

/** A search card's coupon and deal badge as the override sets them; only a card with an offer shows either. */
export function overriddenCardExtras(extras: CardExtras, override: ProductOverride, hasOffer: boolean): CardExtras {
  if (!hasOffer || (override.coupon === undefined && override.deal === undefined)) return extras;
  const next: CardExtras = { ...extras, badges: extras.badges.filter((badge) => badge !== 'limited_time_deal' || override.deal !== false) };
  if (override.deal === true && !next.badges.includes('limited_time_deal')) next.badges.push('limited_time_deal');
  if (override.coupon === null) delete next.couponPercent;
  else if (override.coupon !== undefined) next.couponPercent = override.coupon;
  return next;
}
