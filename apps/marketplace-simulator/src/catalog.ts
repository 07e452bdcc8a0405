import { NOT_FOUND_PREFIX, SPECIAL_ASINS, WELL_KNOWN_ASINS, categoryOfAsin, isCatalogAsin, makeCatalogAsin } from './asin.ts';
import { CATEGORIES, categoryIndexForKeyword, type Category } from './categories.ts';
import type { Money } from './money.ts';
import { hashString, rngFor, type Rng } from './rng.ts';

export type StockState = 'in_stock' | 'low_stock' | 'unavailable';

/** One simulated product, independent of storefront; prices are USD cents before conversion. */
export interface CatalogProduct {
  asin: string;
  category: Category;
  title: string;
  brand: string;
  /** Absent when the product has no offer. */
  priceUsdCents?: number;
  listPriceUsdCents?: number;
  /** Absent when there are no reviews. */
  rating?: number;
  reviewCount: number;
  prime: boolean;
  stock: StockState;
  /** Units left when `stock` is `low_stock`. */
  stockLeft?: number;
  features: string[];
  /** media-amazon image ids, main image first. */
  imageIds: string[];
  /** Rank in the top category, then in the sub category. */
  ranks: [number, number];
  description: string[];
  /** Third-party seller name; absent when sold by Amazon. */
  thirdPartySeller?: string;
  modelNumber: string;
  /** Sibling variations, this product included, in display order. */
  variations: { asin: string; value: string }[];
  /** Books and e-books: who wrote it and the formats it comes in (the shown one selected). */
  book?: Book;
  /** Coupon percent in the buy box (products with an offer only). */
  couponPercent?: number;
  /** A "Limited time deal" badge by the price (products with an offer only). */
  deal: boolean;
  badges: ProductBadge[];
  /**
   * Prices set through the control routes in one currency: shown as set in that currency,
   * converted (from `priceUsdCents`, `listPriceUsdCents`) in any other.
   */
  setPrices?: { price?: Money; listPrice?: Money };
  /** An availability message set through the control routes, in place of the stock's wording. */
  availabilityText?: string;
}

export type ProductBadge = 'amazons_choice' | 'best_seller' | 'climate_pledge_friendly' | 'small_business';

export type BookFormat = 'kindle' | 'paperback' | 'hardcover' | 'audiobook';

export interface Book {
  authors: { name: string; role: 'author' | 'translator' }[];
  /** In display order; a format without a price (audiobook) shows a trial offer instead. */
  formats: { format: BookFormat; priceUsdCents?: number }[];
  selected: BookFormat;
}

const AUTHORS = ['Mara Lindqvist', 'Jonah Reyes', 'Aiko Tanabe', 'Elif Demir', 'Tomasz Nowak'];
const BOOK_TITLES = ['The Quiet Orbit', 'A Field Guide to Tides', 'Salt and Lanterns', 'The Cartographer of Rain'];

/** The two book ASINs: a paperback (price in the buy box) and a Kindle edition (price only on its format). */
function bookOf(asin: string, rng: Rng): Book | undefined {
  if (asin !== SPECIAL_ASINS.paperback && asin !== SPECIAL_ASINS.kindle) return undefined;
  const kindle = rng.int(3, 12) * 100 + 99;
  return {
    authors: [
      { name: rng.pick(AUTHORS), role: 'author' },
      { name: rng.pick(AUTHORS.filter((a) => a !== AUTHORS[0])), role: 'translator' },
    ],
    formats: [
      { format: 'kindle', priceUsdCents: kindle },
      { format: 'audiobook' },
      { format: 'hardcover', priceUsdCents: kindle + 1500 },
      { format: 'paperback', priceUsdCents: kindle + 300 },
    ],
    selected: asin === SPECIAL_ASINS.kindle ? 'kindle' : 'paperback',
  };
}

/** Third-party sellers a buy box may name. */
export const SELLERS: readonly string[] = ['Northwind Traders', 'Blue Harbor Goods', 'Maple & Pine Store', 'Quayside Direct'];
const COLORS = ['Black', 'White', 'Grey', 'Blue', 'Red'];
const IMAGE_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+';

function imageId(rng: Rng): string {
  let id = `${String(rng.int(4, 8))}1`;
  for (let i = 0; i < 8; i++) id += IMAGE_ID_CHARS[rng.int(0, IMAGE_ID_CHARS.length - 1)];
  return `${id}L`;
}

/** USD cents ending in .99, .49 or .00 like real shelf prices. */
function shelfPrice(rng: Rng, [min, max]: readonly [number, number]): number {
  const dollars = rng.int(Math.floor(min / 100), Math.floor(max / 100));
  return dollars * 100 + rng.pick([99, 99, 99, 49, 0]);
}

export function isKnownAsin(asin: string): boolean {
  if (asin.startsWith(NOT_FOUND_PREFIX)) return false;
  return isCatalogAsin(asin) || WELL_KNOWN_ASINS.includes(asin) || (Object.values(SPECIAL_ASINS) as string[]).includes(asin);
}

/** The product behind `asin`, identical on every call; undefined for unknown ASINs. */
export function getProduct(asin: string): CatalogProduct | undefined {
  return seededProduct(asin)?.product;
}

/**
 * A product as generated, with the shelf prices it was drawn with even when it shows none (a
 * product out of stock has no price on its page, but drift and the control routes restock it).
 */
export interface SeededProduct {
  product: CatalogProduct;
  shelfPriceUsdCents: number;
  shelfListPriceUsdCents?: number;
}

/** The generated product behind `asin` (see getProduct) with its shelf prices. */
export function seededProduct(asin: string): SeededProduct | undefined {
  if (!isKnownAsin(asin)) return undefined;
  const categoryIndex = categoryOfAsin(asin);
  const category = CATEGORIES[categoryIndex] as Category;
  const rng = rngFor('product', asin);

  const brand = rng.pick(category.brands);
  const model = `${rng.pick(category.adjectives)} ${rng.pick(category.nouns)}`;
  const color = rng.pick(COLORS);
  const title = `${brand} ${model}, ${rng.pick(category.specs)} - ${color}`;

  const reviewCount = rng.chance(0.1) ? 0 : Math.floor(rng.next() ** 3 * 60000) + 1;
  let stock: StockState = rng.chance(0.9) ? 'in_stock' : rng.chance(0.6) ? 'low_stock' : 'unavailable';
  const forcedOffer = WELL_KNOWN_ASINS.includes(asin);
  if (forcedOffer) stock = 'in_stock';
  if (asin === SPECIAL_ASINS.noPrice) stock = 'unavailable';

  const price = shelfPrice(rng, category.priceCents);
  const listPrice = rng.chance(0.4) ? Math.round((price * rng.int(115, 150)) / 100 / 100) * 100 + 99 : undefined;

  const features = rng.shuffle(category.features).slice(0, rng.int(3, category.features.length));
  const imageIds = Array.from({ length: rng.int(2, 6) }, () => imageId(rng));
  const product: CatalogProduct = {
    asin,
    category,
    title,
    brand,
    reviewCount,
    prime: rng.chance(0.7),
    stock,
    features,
    imageIds,
    ranks: [rng.int(50, 250000), rng.int(1, 900)],
    description: [
      `The ${brand} ${model} is built for everyday use & made to last.`,
      `Designed by ${brand} — "${model}" combines ${features[0]?.toLowerCase() ?? 'quality'} with a clean design.`,
    ],
    modelNumber: `${brand.slice(0, 3).toUpperCase()}-${rng.int(1000, 9999)}`,
    variations: [],
    deal: false,
    badges: [],
  };
  if (reviewCount > 0) product.rating = rng.int(30, 50) / 10;
  if (stock !== 'unavailable') product.priceUsdCents = price;
  if (stock !== 'unavailable' && listPrice !== undefined && listPrice > price) product.listPriceUsdCents = listPrice;
  if (stock === 'low_stock') product.stockLeft = rng.int(1, 9);
  if (rng.chance(0.3)) product.thirdPartySeller = rng.pick(SELLERS);
  if (rng.chance(0.35)) product.variations = variationsOf(asin, categoryIndex, category, rng);
  // Drawn apart so adding them left every other field of every product as it was.
  const extras = rngFor('product-extras', asin);
  if (extras.chance(0.15)) product.badges.push('amazons_choice');
  else if (extras.chance(0.1)) product.badges.push('best_seller');
  if (extras.chance(0.15)) product.badges.push('climate_pledge_friendly');
  if (extras.chance(0.1)) product.badges.push('small_business');
  if (stock !== 'unavailable' && extras.chance(0.25)) product.couponPercent = extras.pick([5, 10, 15, 20]);
  if (stock !== 'unavailable' && extras.chance(0.2)) product.deal = true;
  const book = bookOf(asin, rng);
  if (book) {
    const selected = book.formats.find((f) => f.format === book.selected);
    product.book = book;
    product.title = `${rng.pick(BOOK_TITLES)}: A Novel`;
    product.variations = [];
    product.badges = [];
    product.deal = false;
    delete product.couponPercent;
    product.stock = 'in_stock';
    delete product.stockLeft;
    delete product.thirdPartySeller;
    if (selected?.priceUsdCents !== undefined) product.priceUsdCents = selected.priceUsdCents;
    // Only print books show a list price; e-books a digital list price we leave out.
    if (book.selected === 'paperback') product.listPriceUsdCents = (selected?.priceUsdCents ?? 0) + 600;
    else delete product.listPriceUsdCents;
    return withShelfPrices(product, product.priceUsdCents ?? price, product.listPriceUsdCents);
  }
  return withShelfPrices(product, price, listPrice !== undefined && listPrice > price ? listPrice : undefined);
}

function withShelfPrices(product: CatalogProduct, shelfPriceUsdCents: number, shelfListPriceUsdCents: number | undefined): SeededProduct {
  return shelfListPriceUsdCents === undefined ? { product, shelfPriceUsdCents } : { product, shelfPriceUsdCents, shelfListPriceUsdCents };
}

function variationsOf(asin: string, categoryIndex: number, category: Category, rng: Rng): { asin: string; value: string }[] {
  const count = rng.int(2, category.variationValues.length);
  const selfAt = rng.int(0, count - 1);
  return category.variationValues.slice(0, count).map((value, i) => ({
    asin: i === selfAt ? asin : makeCatalogAsin(categoryIndex, `${asin}|variation|${i}`),
    value,
  }));
}

export interface SearchEntry {
  asin: string;
  sponsored: boolean;
  /** Sponsored products shown in a widget rather than as a result card. */
  placement?: 'video' | 'brand';
}

export interface SearchResults {
  /** In page order: a brand widget's products first, a video widget's product among the results. */
  entries: SearchEntry[];
  /** The "Related searches" suggestions; empty on an empty page. */
  relatedSearches: string[];
  /** Total organic results over all pages, for the "1-16 of over N results" line. */
  totalResults: number;
  hasNextPage: boolean;
}

export interface SearchOptions {
  /** Pages after this one are empty. */
  maxPages: number;
}

/**
 * Results for `keyword` on `page` (1-based), identical on every call. Keywords containing
 * `noresults` and pages beyond `maxPages` have no results.
 */
export function searchCatalog(keyword: string, page: number, options: SearchOptions): SearchResults {
  const normalized = keyword.trim().toLowerCase();
  const keywordHash = hashString(normalized);
  const organicPerPage = [16, 20, 24, 44][keywordHash % 4] as number;
  const empty = normalized === '' || normalized.includes('noresults') || page < 1 || page > options.maxPages;
  if (empty) return { entries: [], relatedSearches: [], totalResults: 0, hasNextPage: false };

  const categoryIndex = categoryIndexForKeyword(normalized, keywordHash);
  const rng = rngFor('search', normalized, page);
  const organic = Array.from({ length: organicPerPage }, (_, i) => ({
    asin: makeCatalogAsin(categoryIndex, `${normalized}|${page}|${i}`),
    sponsored: false,
  }));
  const sponsoredCount = rng.int(2, 4);
  const entries: SearchEntry[] = [...organic];
  for (let i = 0; i < sponsoredCount; i++) {
    const sponsored = { asin: makeCatalogAsin(categoryIndex, `${normalized}|${page}|sp|${i}`), sponsored: true };
    // Two ads on top like the real page, the rest in between organic results.
    const at = i < 2 ? i : rng.int(4, entries.length - 1);
    entries.splice(at, 0, sponsored);
  }
  // Widgets: drawn from their own generator so the result cards stay what they were without them.
  const widgets = rngFor('search-widgets', normalized, page);
  if (widgets.chance(0.5)) {
    const at = widgets.int(6, entries.length - 1);
    entries.splice(at, 0, { asin: makeCatalogAsin(categoryIndex, `${normalized}|${page}|video`), sponsored: true, placement: 'video' });
  }
  if (widgets.chance(0.5)) {
    const brand = [0, 1, 2].map((i) => ({
      asin: makeCatalogAsin(categoryIndex, `${normalized}|${page}|brand|${i}`),
      sponsored: true,
      placement: 'brand' as const,
    }));
    entries.unshift(...brand);
  }
  const category = CATEGORIES[categoryIndex] as Category;
  const related = widgets.shuffle(category.nouns).slice(0, widgets.int(2, 4));
  const relatedSearches = [
    ...new Set(related.map((noun) => (noun.toLowerCase().includes(normalized) ? noun.toLowerCase() : `${normalized} ${noun.toLowerCase()}`))),
  ];
  return { entries, relatedSearches, totalResults: organicPerPage * options.maxPages, hasNextPage: page < options.maxPages };
}
