import { parseCount, parseRating } from '../numbers.ts';
import { parsePrice, type Price, type PriceHint } from '../price.ts';
import { inStockFrom } from './availability.ts';
import { brandFromByline } from './brand.ts';
import { ASIN, type Findings } from './findings.ts';
import { isBestSellersLabel, isReviewsLabel, parseBestSellersRank } from './info-rows.ts';
import type { BestSellersRank, ParseProductPageOptions, ProductDetails } from './types.ts';

/** Turns one pass's findings into ProductDetails: picks between alternatives and parses the texts. */
export function assembleProduct(found: Findings, options: ParseProductPageOptions, hint: PriceHint, marketCurrency: string | undefined): ProductDetails {
  const rowAsin = found.infoRows.find((r) => r.label === 'ASIN')?.value.trim();
  const asin = found.pageAsin ?? found.canonicalAsin ?? (rowAsin && ASIN.test(rowAsin) ? rowAsin : undefined) ?? options.asin?.toUpperCase() ?? '';
  const details: ProductDetails = {
    asin,
    title: found.title || found.fallbackTitle || '',
    url: `${options.origin.replace(/\/+$/, '')}/dp/${asin}`,
    features: found.features,
    images: unique(found.mainImage === undefined ? found.images : [found.mainImage, ...found.images]),
    categories: found.categories,
  };

  const brand = found.poBrand ?? (found.byline === undefined ? undefined : brandFromByline(found.byline));
  if (brand) details.brand = brand;

  const toPay = found.prices.find((p) => p.toPay) ?? found.prices.find((p) => !p.strike && !p.textPrice) ?? found.prices.find((p) => !p.strike);
  const price = read(toPay?.text ?? found.legacyPrice, hint);
  if (price) details.price = price;
  const listPrice = read(found.prices.find((p) => p.strike)?.text ?? found.legacyListPrice, hint);
  if (listPrice) details.listPrice = listPrice;
  const currency = price?.currency ?? listPrice?.currency ?? marketCurrency;
  if (currency) details.currency = currency;

  const rating = parseRatingFrom(found.ratingTitle) ?? parseRatingFrom(found.ratingText);
  if (rating !== undefined) details.rating = rating;
  const reviewCount = found.reviewText === undefined ? undefined : parseCount(found.reviewText);
  if (reviewCount !== undefined) details.reviewCount = reviewCount;

  if (found.availability) {
    details.availability = found.availability;
    const inStock = inStockFrom(found.availability);
    if (inStock !== undefined) details.inStock = inStock;
  }

  const ranks: BestSellersRank[] = [];
  const rows: Record<string, string> = {};
  let hasRows = false;
  for (const { label, value } of found.infoRows) {
    // Some pages repeat the rank in a second details block; the first one is kept.
    if (isBestSellersLabel(label)) {
      if (ranks.length === 0) ranks.push(...parseBestSellersRank(value));
    } else if (!isReviewsLabel(label) && value !== '' && !(label in rows)) {
      rows[label] = value.replace(/\n/g, ' ');
      hasRows = true;
    }
  }
  if (ranks.length > 0) details.bestSellersRank = ranks;
  if (hasRows) details.details = rows;

  if (found.description) details.description = found.description;
  const seller = found.seller ?? sellerFromMerchantText(found.merchantText);
  if (seller) details.seller = seller;
  if (found.variations.length > 0) details.variations = found.variations;
  return details;
}

function read(text: string | undefined, hint: PriceHint): Price | undefined {
  return text === undefined ? undefined : parsePrice(text, hint);
}

function parseRatingFrom(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseRating(text);
}

function sellerFromMerchantText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const match = /(?:sold by|Verkauf durch|vendu par|vendido por|venduto da)\s+(.+?)\.?(?:\s|$)/i.exec(text);
  return match?.[1];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
