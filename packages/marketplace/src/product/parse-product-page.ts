import type { EndTag, StartTag } from 'parse5-sax-parser';
import { VOID_ELEMENTS } from '../html/element-stack.ts';
import { LINE_BREAKS } from '../html/markup-text.ts';
import { pageText } from '../html/page-text.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { attr } from '../html/tags.ts';
import { isChrome } from '../html/chrome.ts';
import { pageMarketplace, priceHintFor } from '../locale-context.ts';
import { assembleProduct, showsProductIdentity } from './assemble-product.ts';
import { PageScan, type IdRegion } from './page-scan.ts';
import { AvailabilityRegion } from './regions/availability.ts';
import { BadgesRegion } from './regions/badges.ts';
import { BrandRegion } from './regions/brand.ts';
import { BreadcrumbRegion } from './regions/breadcrumb.ts';
import { DeliveryLocationRegion } from './regions/delivery-location.ts';
import { FeaturesRegion } from './regions/features.ts';
import { FormatsRegion } from './regions/formats.ts';
import { HistogramRegion, LEGACY_HISTOGRAM_ID } from './regions/histogram.ts';
import { IdentityRegion } from './regions/identity.ts';
import { ImagesRegion, MAIN_IMAGE_IDS } from './regions/images.ts';
import { InfoRowsRegion } from './regions/info-rows.ts';
import { OfferExtrasRegion } from './regions/offer-extras.ts';
import { PriceRegion } from './regions/price.ts';
import { ProductFactsRegion } from './regions/product-facts.ts';
import { RatingRegion } from './regions/rating.ts';
import { SellerRegion } from './regions/seller.ts';
import { TWISTER_ID, TwisterRegion } from './regions/twister.ts';
import type { ParseProductPageOptions, ProductDetails, ProductReading } from './types.ts';

let anchors: RegionAnchors | undefined;

/**
 * The elements a handler reacts to outside every region, and so the only ones tokenized (each with
 * what is inside it): region and main-image ids, the ASIN input, the canonical link, the buy box's
 * tabular rows, the product overview's brand row and the legacy list price.
 */
function productAnchors(regionIds: Iterable<string>): RegionAnchors {
  anchors ??= {
    ids: new Set([...regionIds, ...MAIN_IMAGE_IDS, 'ASIN', 'parentASIN']),
    idPattern: new RegExp(`${TWISTER_ID.source}|${LEGACY_HISTOGRAM_ID.source}`),
    needles: [
      { text: 'canonical', accept: (startTag) => /^<link\s/i.test(startTag) },
      { text: 'tabular-attribute-name' },
      { text: 'po-brand' },
      { text: 'priceBlockStrikePriceString' },
      // Pages from before 2014: the rating, the review count link and the availability have no id.
      { text: 'crAvgStars' },
      { text: 'cm_cr_acr_txt', accept: (startTag) => /^<a\s/i.test(startTag) },
      { text: 'availGreen' },
    ],
  };
  return anchors;
}

/** The product a page shows; see `readProductPage`. */
export function parseProductPage(html: string | Uint8Array, options: ParseProductPageOptions): ProductDetails {
  return readProductPage(html, options).product;
}

/**
 * Reads a product detail page in one streaming pass; see docs/marketplace.md for the layouts. Each
 * part of the page has a region handler (./regions) that writes its findings; `assembleProduct`
 * turns them into ProductDetails. Handlers see each tag in a fixed order, because captures that
 * start on the same element finish in the order they were started. The page is its text or its
 * UTF-8 bytes (read without decoding the whole page: see html/page-text.ts).
 */
export function readProductPage(html: string | Uint8Array, options: ParseProductPageOptions): ProductReading {
  const page = pageText(html);
  const marketplace = pageMarketplace(options.origin, options.marketplace, page);
  const scan = new PageScan();
  const { stack, captures } = scan;
  const identity = new IdentityRegion(scan);
  const price = new PriceRegion(scan);
  const rating = new RatingRegion(scan);
  const availability = new AvailabilityRegion(scan);
  const features = new FeaturesRegion(scan);
  const facts = new ProductFactsRegion(scan);
  const breadcrumb = new BreadcrumbRegion(scan);
  const images = new ImagesRegion(scan);
  const info = new InfoRowsRegion(scan);
  const twister = new TwisterRegion(scan);
  const seller = new SellerRegion(scan);
  const brand = new BrandRegion(scan);
  const formats = new FormatsRegion(scan);
  const histogram = new HistogramRegion(scan);
  const offer = new OfferExtrasRegion(scan);
  const badges = new BadgesRegion(scan);
  const location = new DeliveryLocationRegion(scan);
  // One lookup per id instead of asking each region; the id tables are disjoint, so an id starts
  // one region at most (the variation picker's ids follow a pattern and are matched apart).
  const idRegions = new Map<string, IdRegion>();
  for (const region of [
    price,
    rating,
    features,
    facts,
    images,
    breadcrumb,
    info,
    seller,
    identity,
    brand,
    availability,
    formats,
    histogram,
    offer,
    badges,
    location,
  ]) {
    for (const id of region.ids) idRegions.set(id, region);
  }

  const startTag = (tag: StartTag): void => {
    const name = tag.tagName;
    stack.open(name);
    // Script, style, noscript, popover and expander-prompt content is no text of the page.
    if (stack.hidden) return;
    const cls = attr(tag, 'class');
    if (isChrome(cls)) {
      stack.hideTop();
      return;
    }
    if (LINE_BREAKS.has(name)) captures.text('\n');
    if (price.widgetTag(tag, cls)) return;
    const id = attr(tag, 'id');
    if (VOID_ELEMENTS.has(name)) {
      // Void elements never close, so they cannot open a region or a capture.
      if (name === 'img') {
        images.imgTag(tag, id);
        twister.imgTag(tag);
      } else identity.voidTag(tag, name, id);
      return;
    }
    if (id !== undefined) {
      const region = idRegions.get(id);
      if (region !== undefined) region.onId(id, tag);
      else if (LEGACY_HISTOGRAM_ID.test(id)) histogram.onId();
      else twister.onId(id);
      if (twister.depth > 0) twister.anyId(id);
    }
    // Most tags are in no region, and most handlers read one tag name: checking both here keeps this
    // per-tag function small enough for V8 to inline the element stack into it again (measured).
    if (name === 'span') {
      if (identity.heading.depth > 0) identity.headingSpan(cls);
      price.spanTag(cls);
      rating.spanTag(tag, cls);
      availability.spanTag(cls);
    } else if (name === 'a') rating.linkTag(tag);
    if (features.depth > 0) features.startTag(name, cls);
    if (facts.depth > 0) facts.startTag(name, cls);
    if (breadcrumb.depth > 0) breadcrumb.startTag(tag, name);
    images.startTag(name, cls);
    if (info.depth > 0) info.startTag(tag, name, cls);
    if (twister.depth > 0) twister.startTag(tag, cls);
    if (name === 'span') seller.spanTag(cls);
    seller.tabularTag(tag);
    if (name === 'tr' || name === 'td') {
      brand.startTag(name, cls);
      if (price.depth > 0) price.tableTag(name);
    }
    if (brand.byline.depth > 0) brand.bylineTag(name, cls);
    if (formats.depth > 0) formats.startTag(name, cls);
    if (histogram.depth > 0) histogram.startTag(tag, name, cls);
    if (offer.coupon.depth > 0) offer.couponTag(name, cls);
    if (name === 'i' && (price.depth > 0 || offer.delivery.depth > 0)) offer.iconTag(cls);
  };

  const handler = {
    startTag,
    endTag(tag: EndTag) {
      stack.close(tag.tagName);
    },
    text(text: string) {
      scan.text(text);
    },
  };
  scanRegions(page, productAnchors(idRegions.keys()), handler, stack);
  const product = assembleProduct(scan.found, options, priceHintFor(marketplace), marketplace?.currency);
  return { product, recognized: showsProductIdentity(scan.found) };
}
