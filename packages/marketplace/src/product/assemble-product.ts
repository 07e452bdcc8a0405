import { headerLocation, validateProduct } from '../fields/validate-product.ts';
import { absoluteUrl } from '../html/tags.ts';
import { parseCount, parseRating } from '../numbers.ts';
import { parsePrice, type Price, type PriceHint } from '../price.ts';
import { inStockFrom } from './availability.ts';
import { brandFromByline } from './brand.ts';
import { ASIN, type Findings } from './findings.ts';
import { isBestSellersLabel, isReviewsLabel, parseBestSellersRank } from './info-rows.ts';
import { isoDateOf, rowField } from './row-fields.ts';
import type { BestSellersRank, ParseProductPageOptions, ProductDetails, ProductFormat, StarHistogram } from './types.ts';

/** The optional fields of a record: those of them a page does not yield are its `missingFields`. */
export const PRODUCT_FIELDS = [
  'parentAsin',
  'brand',
  'authors',
  'manufacturer',
  'modelNumber',
  'format',
  'price',
  'listPrice',
  'savings',
  'coupon',
  'deal',
  'rating',
  'reviewCount',
  'starHistogram',
  'availability',
  'inStock',
  'seller',
  'fulfilledByAmazon',
  'prime',
  'delivery',
  'otherOffersCount',
  'features',
  'description',
  'images',
  'videoCount',
  'specifications',
  'details',
  'dimensions',
  'weight',
  'firstAvailable',
  'categories',
  'bestSellersRank',
  'variations',
  'badges',
] as const satisfies readonly (keyof ProductDetails)[];

const SAVINGS_ROW = /you save|sie sparen|économisez|ahorras|ahorra|risparmi|je bespaart|du sparar|oszczędzasz|kazancınız|割引|economize/i;
const HISTOGRAM_KEYS: Record<number, keyof StarHistogram> = { 5: 'fiveStar', 4: 'fourStar', 3: 'threeStar', 2: 'twoStar', 1: 'oneStar' };
const FULFILLED_BY_AMAZON =
  /ships from and sold by amazon|fulfilled by amazon|versand durch amazon|expédié par amazon|enviado por amazon|spedito da amazon|verzonden door amazon|amazon が発送/i;

/**
 * A product page names its product twice over: a title in the title region and its own ASIN (the
 * hidden input, the canonical link or the ASIN detail row). A page without both is some other page,
 * however much of a product it seems to show (a sign-in page, a landing page, an error page).
 */
export function showsProductIdentity(found: Findings): boolean {
  return pageOwnAsin(found) !== undefined && (found.title || found.fallbackTitle || '') !== '';
}

/** The ASIN the page gives itself: the hidden input, the canonical link, the ASIN detail row, then the title's widget. */
function pageOwnAsin(found: Findings): string | undefined {
  const rowAsin = found.infoRows.find((r) => r.label === 'ASIN')?.value.trim();
  return found.pageAsin ?? found.canonicalAsin ?? (rowAsin && ASIN.test(rowAsin) ? rowAsin : undefined) ?? found.widgetAsin;
}

/** Turns one pass's findings into ProductDetails: picks between alternatives and parses the texts. */
export function assembleProduct(found: Findings, options: ParseProductPageOptions, hint: PriceHint, marketCurrency: string | undefined): ProductDetails {
  const origin = options.origin.replace(/\/+$/, '');
  const asin = pageOwnAsin(found) ?? options.asin?.toUpperCase() ?? '';
  const details: ProductDetails = {
    asin,
    title: found.title || found.fallbackTitle || '',
    url: `${origin}/dp/${asin}`,
    // A page with both the feature bullets and the product facts lists the same bullets twice.
    features: unique(found.features),
    images: unique(found.mainImage === undefined ? found.images : [found.mainImage, ...found.images]),
    categories: found.categories,
    missingFields: [],
  };
  if (found.parentAsin !== undefined && found.parentAsin !== asin) details.parentAsin = found.parentAsin;

  const brand = found.poBrand ?? (found.byline === undefined ? undefined : brandFromByline(found.byline));
  if (brand) details.brand = brand;
  if (found.authors.length > 0) details.authors = found.authors;

  const formats: ProductFormat[] = found.formats.map((f) => {
    const format: ProductFormat = { name: f.name, selected: f.selected };
    const price = read(f.price, hint);
    if (price) format.price = price;
    return format;
  });
  const selectedFormat = formats.find((f) => f.selected);
  const format = selectedFormat?.name ?? (found.subtitle ?? found.headingFormat)?.split(/\s[–—-]\s/)[0]?.trim();
  if (format) details.format = format;
  if (formats.length > 0) details.formats = formats;

  const offered = found.prices.filter((p) => p.rowLabel === undefined || !SAVINGS_ROW.test(p.rowLabel));
  const toPay = offered.find((p) => p.toPay) ?? offered.find((p) => !p.strike && !p.textPrice) ?? offered.find((p) => !p.strike);
  const price = read(toPay?.text ?? found.legacyPrice, hint) ?? selectedFormat?.price;
  if (price) details.price = price;
  const listPrice = read(offered.find((p) => p.strike)?.text ?? found.legacyListPrice, hint);
  if (listPrice) details.listPrice = listPrice;
  const saved = read(found.prices.find((p) => p.rowLabel !== undefined && SAVINGS_ROW.test(p.rowLabel))?.text, hint);
  const percentText = found.savingsPercentText === undefined ? undefined : /(\d+(?:[.,]\d+)?)\s*%/.exec(found.savingsPercentText)?.[1];
  if (saved || percentText) {
    details.savings = {};
    if (saved) details.savings.price = saved;
    if (percentText) details.savings.percent = Number(percentText.replace(',', '.'));
  }
  if (found.coupon) details.coupon = found.coupon;
  if (found.deal) details.deal = found.deal;
  const currency = price?.currency ?? listPrice?.currency ?? marketCurrency;
  if (currency) details.currency = currency;

  const rating = parseRatingFrom(found.ratingTitle) ?? parseRatingFrom(found.ratingText);
  if (rating !== undefined) details.rating = rating;
  const reviewCount = found.reviewText === undefined ? undefined : parseCount(found.reviewText);
  if (reviewCount !== undefined) details.reviewCount = reviewCount;
  const histogram = starHistogram(found.histogram);
  if (histogram) details.starHistogram = histogram;

  if (found.availability) {
    details.availability = found.availability;
    const inStock = inStockFrom(found.availability);
    if (inStock !== undefined) details.inStock = inStock;
  }

  const ranks: BestSellersRank[] = [];
  const rows: Record<string, string> = {};
  const specs: Record<string, string> = {};
  let hasRows = false;
  let hasSpecs = false;
  const fromRows: { manufacturer?: string; modelNumber?: string; dimensions?: string; weight?: string; firstAvailable?: string } = {};
  for (const { label, value, section, links } of found.infoRows) {
    // Some pages repeat the rank in a second details block; the first one is kept.
    if (isBestSellersLabel(label)) {
      if (ranks.length === 0) ranks.push(...withLinks(parseBestSellersRank(value), links, origin));
      continue;
    }
    if (isReviewsLabel(label) || value === '') continue;
    const flat = value.replace(/\n/g, ' ');
    const field = rowField(label);
    if (field !== undefined) fromRows[field] ??= flat;
    if (section !== 'overview' && !(label in rows)) {
      rows[label] = flat;
      hasRows = true;
    }
    if (section !== 'details' && !(label in specs)) {
      specs[label] = flat;
      hasSpecs = true;
    }
  }
  if (ranks.length > 0) details.bestSellersRank = ranks;
  if (hasRows) details.details = rows;
  if (hasSpecs) details.specifications = specs;
  if (fromRows.manufacturer) details.manufacturer = fromRows.manufacturer;
  if (fromRows.modelNumber) details.modelNumber = fromRows.modelNumber;
  // "Product Dimensions: 11.97 x 8.36 x 0.63 inches; 2.8 Pounds" holds both.
  const [dimensions, weightInDimensions] = (fromRows.dimensions ?? '').split(/\s*;\s*/);
  if (dimensions) details.dimensions = dimensions;
  const weight = fromRows.weight ?? weightInDimensions;
  if (weight) details.weight = weight;
  if (fromRows.firstAvailable) {
    details.firstAvailable = { raw: fromRows.firstAvailable };
    const date = isoDateOf(fromRows.firstAvailable);
    if (date) details.firstAvailable.date = date;
  }

  if (found.description) details.description = found.description;
  const seller = found.seller ?? sellerFromMerchantText(found.merchantText);
  if (seller) details.seller = seller;
  if (found.shipsFrom) {
    details.shipsFrom = found.shipsFrom;
    details.fulfilledByAmazon = /^amazon\b/i.test(found.shipsFrom);
  } else if (found.merchantText && FULFILLED_BY_AMAZON.test(found.merchantText)) {
    details.fulfilledByAmazon = true;
  }
  if (price) details.prime = found.prime;
  const delivery = found.delivery ?? found.deliveryBlock;
  if (delivery) details.delivery = delivery;
  const otherOffers = found.otherOffersText === undefined ? undefined : /\((\d[\d.,\s\u00a0\u202f]*)\)/.exec(found.otherOffersText)?.[1];
  if (otherOffers !== undefined) {
    const count = parseCount(otherOffers);
    if (count !== undefined) details.otherOffersCount = count;
  }

  const videoCount = found.videoCountText === undefined ? undefined : parseCount(found.videoCountText);
  if (videoCount !== undefined) details.videoCount = videoCount;
  else if (found.gallery) details.videoCount = found.videoThumbs;

  if (found.breadcrumbs.length > 0) {
    details.breadcrumbs = found.breadcrumbs.map((step) => {
      const url = step.url === undefined ? undefined : absoluteUrl(step.url, `${origin}/`);
      return url === undefined ? { name: step.name, ...(step.nodeId ? { nodeId: step.nodeId } : {}) } : { ...step, url };
    });
  }
  if (found.variations.length > 0) details.variations = found.variations;
  if (found.badges.length > 0) details.badges = found.badges;
  const deliverTo = headerLocation(...found.deliveryLines);
  if (deliverTo !== undefined) details.deliverTo = deliverTo;

  validateProduct(details);
  for (const field of PRODUCT_FIELDS) {
    const value = details[field];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) details.missingFields.push(field);
  }
  return details;
}

function starHistogram(rows: Findings['histogram']): StarHistogram | undefined {
  const histogram: StarHistogram = {};
  let any = false;
  for (const row of rows) {
    const stars = row.stars ?? Number(/^\D*([1-5])\b/.exec(row.text)?.[1] ?? Number.NaN);
    const percent = row.percent ?? Number(/(\d+(?:[.,]\d+)?)\s*%(?!.*\d\s*%)/.exec(row.text)?.[1]?.replace(',', '.') ?? Number.NaN);
    const key = HISTOGRAM_KEYS[stars];
    if (key === undefined || !Number.isFinite(percent) || histogram[key] !== undefined) continue;
    histogram[key] = percent;
    any = true;
  }
  return any ? histogram : undefined;
}

/** Each rank with the link of its category list: the link named after the category, or "See Top 100 in <category>". */
function withLinks(ranks: BestSellersRank[], links: { text: string; href: string }[], origin: string): BestSellersRank[] {
  for (const rank of ranks) {
    const link = links.find((l) => l.text === rank.category) ?? links.find((l) => l.text.includes(rank.category));
    const url = link === undefined ? undefined : absoluteUrl(link.href, `${origin}/`);
    if (url !== undefined) rank.link = url;
  }
  return ranks;
}

function read(text: string | undefined, hint: PriceHint): Price | undefined {
  return text === undefined ? undefined : parsePrice(text, hint);
}

function parseRatingFrom(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseRating(text);
}

// "Ships from and sold by Amazon.", "Verkauf und Versand durch Amazon.": the seller follows the wording.
// The name runs to the sentence's end (a period before a space: `Amazon.com.` keeps its dot) or to
// "and fulfilled by …".
const SOLD_BY =
  /(?:sold by|Verkauf(?: und Versand)? durch|(?:expédié et )?vendu par|(?:vendido y enviado|enviado y vendido|vendido) por|(?:venduto e spedito|venduto) da|verkocht(?: en verzonden)? door)\s+(.+?)(?:\.(?=\s|$)|\s+(?:and|und|et|y|e|en)\s+(?:fulfilled|versand|expédié|enviado|spedito|verzonden)\b|$)/i;

function sellerFromMerchantText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return SOLD_BY.exec(text)?.[1];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
