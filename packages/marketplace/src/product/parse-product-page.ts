import type { StartTag } from 'parse5-sax-parser';
import { ElementStack, VOID_ELEMENTS } from '../html/element-stack.ts';
import { PriceElementReader, type PriceElement } from '../html/price-element.ts';
import { scanHtml } from '../html/sax-scanner.ts';
import { attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { pageMarketplace, priceHintFor } from '../locale-context.ts';
import { parseCount, parseRating } from '../numbers.ts';
import { parsePrice, type Price, type PriceHint } from '../price.ts';
import { inStockFrom } from './availability.ts';
import { brandFromByline } from './brand.ts';
import { fullSizeImage, isImageUrl, largestDynamicImage } from './images.ts';
import { cleanLabel, isBestSellersLabel, isReviewsLabel, parseBestSellersRank } from './info-rows.ts';
import {
  AVAILABILITY_IDS,
  BREADCRUMB_REGIONS,
  FEATURE_REGIONS,
  IMAGE_REGIONS,
  INFO_REGIONS,
  LEGACY_PRICE_IDS,
  MAIN_IMAGE_IDS,
  PRICE_REGIONS,
  RATING_REGIONS,
  TWISTER_DIMENSION_ID,
  TWISTER_ID,
} from './regions.ts';
import type { BestSellersRank, ParseProductPageOptions, ProductDetails, ProductVariation } from './types.ts';

const ASIN = /^[A-Z0-9]{10}$/;
const SOLD_BY_LABEL = /^(?:Sold by|Verkäufer|Vendu par|Vendido por|Venduto da|販売元|Verkocht door|Säljs av|Sprzedawca|Satıcı)$/i;
// Starts of these elements separate lines of text; multi-line values (description, ranks) need it.
const LINE_BREAKS: ReadonlySet<string> = new Set(['br', 'p', 'li', 'td', 'tr', 'div', 'ul']);
const VARIATION_TITLE_PREFIX = /^(?:Click to select|Klicke, um|Cliquez pour sélectionner|Haz clic para seleccionar|Fai clic per selezionare|クリックして選択)\s*/i;

/** Raw findings of one pass; `finish` turns them into ProductDetails. */
interface Findings {
  pageAsin?: string;
  canonicalAsin?: string;
  title?: string;
  fallbackTitle?: string;
  byline?: string;
  poBrand?: string;
  prices: PriceElement[];
  legacyPrice?: string;
  legacyListPrice?: string;
  ratingTitle?: string;
  ratingText?: string;
  reviewText?: string;
  availability?: string;
  features: string[];
  mainImage?: string;
  images: string[];
  categories: string[];
  infoRows: { label: string; value: string }[];
  description?: string;
  seller?: string;
  merchantText?: string;
  variations: ProductVariation[];
}

/** Reads a product detail page in one streaming pass; see docs/marketplace.md for the layouts. */
export function parseProductPage(html: string, options: ParseProductPageOptions): ProductDetails {
  const marketplace = pageMarketplace(options.origin, options.marketplace);
  const found: Findings = { prices: [], features: [], images: [], categories: [], infoRows: [], variations: [] };
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const priceReader = new PriceElementReader(stack, captures);

  // Depth counters of the regions currently open (nested containers of one kind count once each).
  let inPrice = 0;
  let inRating = 0;
  let inFeatures = 0;
  let inImages = 0;
  let inBreadcrumb = 0;
  let inInfo = 0;
  let inTwister = 0;
  let inMerchant = 0;
  let inPoBrand = 0;
  let inSoldBy = 0;
  let featureOpen = false;
  let availabilityParts: string[] | undefined;
  let availabilityFirstSpan: string | undefined;
  let thumb: { selected: boolean; video: boolean } | undefined;
  let row: { parts: string[]; label: string | undefined } | undefined;
  let dimension: string | undefined;
  let variation: ProductVariation | undefined;

  const capture = (set: (text: string) => void): void => {
    const parts = captures.begin();
    stack.onClose(() => set(captures.end(parts)));
  };
  const region = (enter: () => void, leave: () => void): void => {
    enter();
    stack.onClose(leave);
  };

  const onId = (id: string, tag: StartTag): void => {
    if (PRICE_REGIONS.has(id)) region(() => inPrice++, () => inPrice--);
    else if (RATING_REGIONS.has(id)) {
      region(() => inRating++, () => inRating--);
      if (id === 'acrPopover') found.ratingTitle ??= attr(tag, 'title');
    } else if (FEATURE_REGIONS.has(id)) region(() => inFeatures++, () => inFeatures--);
    else if (IMAGE_REGIONS.has(id)) region(() => inImages++, () => inImages--);
    else if (BREADCRUMB_REGIONS.has(id)) region(() => inBreadcrumb++, () => inBreadcrumb--);
    else if (INFO_REGIONS.has(id)) region(() => inInfo++, () => inInfo--);
    else if (TWISTER_ID.test(id)) region(() => inTwister++, () => inTwister--);
    else if (id === 'merchantInfoFeature_feature_div' || id === 'merchant-info') {
      region(() => inMerchant++, () => inMerchant--);
      if (id === 'merchant-info') capture((text) => (found.merchantText ??= normalizeSpace(text)));
    } else if (id === 'productTitle') {
      if (found.title === undefined) capture((text) => (found.title = normalizeSpace(text)));
    } else if (id === 'title') {
      capture((text) => (found.fallbackTitle ??= normalizeSpace(text)));
    } else if (id === 'bylineInfo') {
      capture((text) => (found.byline ??= normalizeSpace(text)));
    } else if (LEGACY_PRICE_IDS.has(id)) {
      capture((text) => (found.legacyPrice ??= normalizeSpace(text)));
    } else if (id === 'acrCustomerReviewText') {
      capture((text) => (found.reviewText ??= normalizeSpace(text)));
    } else if (AVAILABILITY_IDS.has(id) && found.availability === undefined && availabilityParts === undefined) {
      const parts = captures.begin();
      availabilityParts = parts;
      stack.onClose(() => {
        const whole = normalizeSpace(captures.end(parts));
        availabilityParts = undefined;
        found.availability ??= availabilityFirstSpan ?? (whole === '' ? undefined : whole);
      });
    } else if (id === 'productDescription') {
      capture((text) => (found.description ??= lines(text)));
    } else if (id === 'sellerProfileTriggerId') {
      capture((text) => (found.seller ??= normalizeSpace(text)));
    }
    if (inTwister > 0) {
      const dim = TWISTER_DIMENSION_ID.exec(id)?.[1];
      if (dim !== undefined) {
        const previous = dimension;
        dimension = dim;
        stack.onClose(() => (dimension = previous));
      }
    }
  };

  const startTag = (tag: StartTag): void => {
    const name = tag.tagName;
    stack.open(name);
    if (LINE_BREAKS.has(name)) captures.text('\n');
    const cls = attr(tag, 'class');
    if (inPrice > 0 || priceReader.reading) {
      if (priceReader.startTag(tag, cls, (price) => found.prices.push(price))) return;
    }
    const id = attr(tag, 'id');
    if (VOID_ELEMENTS.has(name)) {
      // Void elements never close, so they cannot open a region or a capture.
      voidTag(tag, name, id);
      return;
    }
    if (id !== undefined) onId(id, tag);
    if (name === 'span' && hasClass(cls, 'priceBlockStrikePriceString')) {
      capture((text) => (found.legacyListPrice ??= normalizeSpace(text)));
    }
    if (inRating > 0 && name === 'span' && hasClass(cls, 'a-icon-alt') && found.ratingText === undefined) {
      capture((text) => (found.ratingText ??= normalizeSpace(text)));
    }
    if (availabilityParts !== undefined && name === 'span' && availabilityFirstSpan === undefined) {
      capture((text) => {
        const value = normalizeSpace(text);
        if (value !== '') availabilityFirstSpan ??= value;
      });
    }
    if (inFeatures > 0 && name === 'li' && !featureOpen && !hasClass(cls, 'aok-hidden')) {
      featureOpen = true;
      capture((text) => {
        featureOpen = false;
        const value = normalizeSpace(text);
        if (value !== '') found.features.push(value);
      });
    }
    if (inBreadcrumb > 0 && name === 'a') {
      capture((text) => {
        const value = normalizeSpace(text);
        if (value !== '') found.categories.push(value);
      });
    }
    if (inImages > 0 && name === 'li') thumbTag(cls);
    else if (thumb && hasClass(cls, 'a-button-selected')) thumb.selected = true;
    if (inInfo > 0) infoTag(name, cls);
    if (inTwister > 0) twisterTag(tag, cls);
    if ((inMerchant > 0 || inSoldBy > 0) && name === 'span' && (hasClass(cls, 'offer-display-feature-text-message') || hasClass(cls, 'tabular-buybox-text-message'))) {
      capture((text) => (found.seller ??= normalizeSpace(text) || undefined));
    }
    const tabular = attr(tag, 'tabular-attribute-name');
    if (tabular !== undefined && SOLD_BY_LABEL.test(tabular)) region(() => inSoldBy++, () => inSoldBy--);
    if (name === 'tr' && hasClass(cls, 'po-brand')) region(() => inPoBrand++, () => inPoBrand--);
    else if (inPoBrand > 0 && name === 'td' && hasClass(cls, 'a-span9')) {
      capture((text) => (found.poBrand ??= normalizeSpace(text) || undefined));
    }
  };

  const voidTag = (tag: StartTag, name: string, id: string | undefined): void => {
    if (name === 'img') {
      if (inImages > 0 || (id !== undefined && MAIN_IMAGE_IDS.has(id))) imageTag(tag, id);
      if (variation !== undefined && variation.label === undefined) {
        const alt = attr(tag, 'alt');
        if (alt) variation.label = alt;
      }
    } else if (name === 'input' && id === 'ASIN') {
      const value = attr(tag, 'value')?.toUpperCase();
      if (value && ASIN.test(value)) found.pageAsin ??= value;
    } else if (name === 'link' && attr(tag, 'rel') === 'canonical') {
      found.canonicalAsin ??= /\/dp\/([A-Z0-9]{10})/.exec(attr(tag, 'href') ?? '')?.[1];
    }
  };

  const thumbTag = (cls: string | undefined): void => {
    const started = { selected: false, video: hasClass(cls, 'videoThumbnail') || hasClass(cls, 'videoBlockIngress') };
    thumb = started;
    stack.onClose(() => {
      if (thumb === started) thumb = undefined;
    });
  };

  const imageTag = (tag: StartTag, id: string | undefined): void => {
    const isMain = id !== undefined && MAIN_IMAGE_IDS.has(id);
    if (!isMain && (thumb?.video || thumb?.selected)) return;
    const dynamic = attr(tag, 'data-a-dynamic-image');
    const candidates = [attr(tag, 'data-old-hires'), attr(tag, 'data-a-hires'), dynamic === undefined ? undefined : largestDynamicImage(dynamic)];
    const best = candidates.find(isImageUrl) ?? attr(tag, 'src');
    if (!isImageUrl(best)) return;
    const url = fullSizeImage(best);
    if (isMain) found.mainImage ??= url;
    else found.images.push(url);
  };

  const infoTag = (name: string, cls: string | undefined): void => {
    if (row === undefined && (name === 'li' || name === 'tr')) {
      const started: { parts: string[]; label: string | undefined } = { parts: captures.begin(), label: undefined };
      row = started;
      stack.onClose(() => {
        row = undefined;
        const text = captures.end(started.parts);
        const label = started.label === undefined ? undefined : cleanLabel(normalizeSpace(started.label));
        if (label === undefined || label === '') return;
        const at = text.indexOf(started.label as string);
        const value = at === -1 ? text : text.slice(at + (started.label as string).length);
        found.infoRows.push({ label, value: lines(value.replace(/^[\s\u200e\u200f:：]+/, '')) });
      });
      return;
    }
    if (row !== undefined && row.label === undefined && (name === 'th' || (name === 'span' && hasClass(cls, 'a-text-bold')))) {
      const current = row;
      current.label = '';
      capture((text) => (current.label = text));
    }
  };

  const twisterTag = (tag: StartTag, cls: string | undefined): void => {
    const asin = attr(tag, 'data-defaultasin') ?? attr(tag, 'data-asin');
    if (variation === undefined && asin !== undefined && ASIN.test(asin)) {
      const title = attr(tag, 'title');
      const label = title === undefined ? undefined : title.replace(VARIATION_TITLE_PREFIX, '').trim();
      const started: ProductVariation = {
        asin,
        selected: hasClass(cls, 'swatchSelect') || attr(tag, 'data-initiallyselected') === 'true',
      };
      if (dimension !== undefined) started.dimension = dimension;
      if (label) started.label = label;
      variation = started;
      capture((text) => {
        variation = undefined;
        const shown = normalizeSpace(text);
        if (started.label === undefined && shown !== '') started.label = shown;
        found.variations.push(started);
      });
      return;
    }
    const current = variation;
    if (current === undefined) return;
    if (hasClass(cls, 'a-button-selected') || hasClass(cls, 'swatchSelect')) current.selected = true;
    if (current.label === undefined && (hasClass(cls, 'swatch-title-text-display') || hasClass(cls, 'twisterTextDiv'))) {
      capture((text) => {
        const shown = normalizeSpace(text);
        if (current.label === undefined && shown !== '') current.label = shown;
      });
    }
  };

  scanHtml(html, {
    startTag,
    endTag(tag) {
      stack.close(tag.tagName);
    },
    text(text) {
      captures.text(text);
    },
  });
  stack.closeAll();
  return finish(found, options, priceHintFor(marketplace), marketplace?.currency);
}

function lines(text: string): string {
  return text
    .split('\n')
    .map(normalizeSpace)
    .filter((line) => line !== '')
    .join('\n');
}

function finish(found: Findings, options: ParseProductPageOptions, hint: PriceHint, marketCurrency: string | undefined): ProductDetails {
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
    }
    else if (!isReviewsLabel(label) && value !== '' && !(label in rows)) {
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
