import type { EndTag, StartTag } from 'parse5-sax-parser';
import { ElementStack } from '../html/element-stack.ts';
import { pageText } from '../html/page-text.ts';
import { PriceElementReader } from '../html/price-element.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { validateSearchItem } from '../fields/validate-search.ts';
import { headerLocation } from '../fields/validate-product.ts';
import { isChrome } from '../html/chrome.ts';
import { absoluteUrl, attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { pageMarketplace, priceHintFor } from '../locale-context.ts';
import { parseCount, parseRating } from '../numbers.ts';
import { parsePrice, type Price, type PriceHint } from '../price.ts';
import { newItemDraft, pickListPrice, pickPrice, pickTitle, type ItemDraft } from './item-draft.ts';
import { SEARCH_ITEM_FIELDS, type ParseSearchPageOptions, type SearchBadge, type SearchItem, type SearchPage } from './types.ts';

const ASIN = /^[A-Z0-9]{10}$/;
const SPONSORED_MARKERS = [
  'puis-sponsored-label-text',
  's-sponsored-label-text',
  'puis-label-popover-default',
  's-label-popover-default',
  's-sponsored-header',
  's-sponsored-label-info-icon',
];

/**
 * Result cards: the classic `div[data-component-type="s-search-result"]`, the grid `div[role=listitem]
 * .s-result-item` and the legacy `li.s-result-item`, all carrying a non-empty `data-asin`. Cards of
 * carousels and brand widgets also have `data-asin` but none of these markers.
 */
function isResultCard(tag: StartTag, cls: string | undefined): boolean {
  const component = attr(tag, 'data-component-type');
  return component === 's-search-result' || component === 'sp-sponsored-result' || hasClass(cls, 's-result-item');
}

function isSponsoredCard(tag: StartTag, cls: string | undefined): boolean {
  return hasClass(cls, 'AdHolder') || attr(tag, 'data-component-type') === 'sp-sponsored-result';
}

/** Sponsored widgets whose product cards are results: `data-component-type` → placement. */
const PLACEMENT_WIDGETS: ReadonlyMap<string, 'video' | 'brand'> = new Map([
  ['sbv-video-single-product', 'video'],
  ['s-sponsored-brand', 'brand'],
]);
const RELATED_SEARCHES = 's-related-searches';
const BOUGHT_PAST_MONTH =
  /(\d[\d.,\s\u00a0\u202f]*)\s*([KkMm]|mil|Tsd\.?)?\s*\+?\s*(?:bought in past month|im letzten Monat gekauft|achetés au cours du mois dernier|comprados el mes pasado|acquistati nel mese scorso|gekocht in de afgelopen maand|過去1か月で)/i;

/** Japanese puts the count after the period: `過去1か月で1,000点以上購入されました`. */
const BOUGHT_PAST_MONTH_JA = /過去1か月で\s*(\d[\d,.]*)\s*(万)?点以上/;

// What makes a page a result page even without a card: the result list (it holds the cards, so it
// costs little more to read), the results header widget (which also says when nothing matched), or
// the legacy layout's no-results heading.
const RESULT_LIST = 's-main-slot';
const RESULTS_HEADER = 's-messaging-widget-results-header';
const RESULTS_FRAME_IDS = ['atfResults', 's-results-list-atf', 'noResultsTitle'];

/**
 * The elements the parser reacts to, and so the only ones tokenized (each with what is inside it):
 * result cards (a div or li with an ASIN and a card marker), the sponsored video and brand widgets,
 * the related searches, the result count and the next-page link.
 */
const SEARCH_ANCHORS: RegionAnchors = {
  ids: new Set(['s-result-count', 'pagnNextLink', 'glow-ingress-line1', 'glow-ingress-line2', ...RESULTS_FRAME_IDS]),
  needles: [
    { text: RESULTS_HEADER, accept: (startTag: string) => startTag.includes(`data-component-type="${RESULTS_HEADER}"`) },
    { text: RESULT_LIST, accept: (startTag: string) => /\sclass=["'][^"']*\bs-main-slot\b/.test(startTag) },
    ...[...PLACEMENT_WIDGETS.keys(), RELATED_SEARCHES].map((type) => ({
      text: type,
      accept: (startTag: string) => startTag.includes(`data-component-type="${type}"`),
    })),
    {
      text: 'data-asin=',
      accept: (startTag) =>
        /^<(?:div|li)\s/i.test(startTag) &&
        /\sdata-asin=["']?[A-Z0-9]{10}["'\s/>]/.test(startTag) &&
        /s-search-result|sp-sponsored-result|s-result-item/.test(startTag),
    },
    { text: 's-result-info-bar' },
    { text: 's-pagination-next', accept: (startTag) => /^<a\s/i.test(startTag) },
  ],
};

/**
 * Reads a search results page in one streaming pass; see docs/marketplace.md for the layouts. The
 * page is its text or its UTF-8 bytes (read without decoding the whole page: see html/page-text.ts).
 */
export function parseSearchPage(html: string | Uint8Array, options: ParseSearchPageOptions): SearchPage {
  const text = pageText(html);
  const hint = priceHintFor(pageMarketplace(options.origin, options.marketplace, text));
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const priceReader = new PriceElementReader(stack, captures);
  const drafts: ItemDraft[] = [];
  let draft: ItemDraft | undefined;
  let linkDepth = 0;
  let heading: { parts: string[]; linked: boolean } | undefined;
  let inStarIcon = 0;
  // The open `#customerReviews` link; a star icon inside means it shows the rating, not the count.
  let reviewLink: { hasStar: boolean } | undefined;
  let inInfoBar = 0;
  let totalResultsText: string | undefined;
  let hasNextPage = false;
  let widget: 'video' | 'brand' | undefined;
  let inRelated = 0;
  const relatedSearches: string[] = [];
  const deliveryLines: [string | undefined, string | undefined] = [undefined, undefined];
  let resultsFrame = false;

  const capture = (set: (text: string) => void): void => {
    const parts = captures.begin();
    stack.onClose(() => set(normalizeSpace(captures.end(parts))));
  };

  const outsideCard = (tag: StartTag, cls: string | undefined): void => {
    const name = tag.tagName;
    const component = attr(tag, 'data-component-type');
    const placement = component === undefined ? undefined : PLACEMENT_WIDGETS.get(component);
    if (placement !== undefined && widget === undefined) {
      widget = placement;
      stack.onClose(() => (widget = undefined));
      return;
    }
    const id = attr(tag, 'id');
    if (id === 'glow-ingress-line1' || id === 'glow-ingress-line2') {
      const line = id === 'glow-ingress-line1' ? 0 : 1;
      capture((text) => (deliveryLines[line] ??= text || undefined));
      return;
    }
    if (component === RESULTS_HEADER || hasClass(cls, RESULT_LIST) || RESULTS_FRAME_IDS.includes(attr(tag, 'id') ?? '')) resultsFrame = true;
    if (component === RELATED_SEARCHES) {
      inRelated++;
      stack.onClose(() => inRelated--);
      return;
    }
    if (inRelated > 0 && name === 'a') {
      capture((text) => {
        if (text !== '' && !relatedSearches.includes(text)) relatedSearches.push(text);
      });
      return;
    }
    if (name === 'div' || name === 'li') {
      const asin = attr(tag, 'data-asin');
      if (asin !== undefined && ASIN.test(asin) && (widget !== undefined || isResultCard(tag, cls))) {
        const started = newItemDraft(asin, widget !== undefined || isSponsoredCard(tag, cls));
        started.widget = widget;
        draft = started;
        stack.onClose(() => {
          drafts.push(started);
          draft = undefined;
          linkDepth = 0;
          inStarIcon = 0;
          heading = undefined;
          reviewLink = undefined;
        });
        return;
      }
    }
    if (name === 'a') {
      if ((hasClass(cls, 's-pagination-next') && !hasClass(cls, 's-pagination-disabled')) || attr(tag, 'id') === 'pagnNextLink') {
        hasNextPage = true;
      }
      return;
    }
    if (totalResultsText === undefined) {
      if (attr(tag, 'data-component-type') === 's-result-info-bar' || attr(tag, 'id') === 's-result-count') {
        inInfoBar++;
        capture((text) => {
          inInfoBar--;
          if (totalResultsText === undefined && /\d/.test(text)) totalResultsText = text;
        });
      } else if (inInfoBar > 0 && (name === 'span' || name === 'h1' || name === 'h2')) {
        capture((text) => {
          if (totalResultsText === undefined && /\d/.test(text)) totalResultsText = text;
        });
      }
    }
  };

  const insideCard = (card: ItemDraft, tag: StartTag, cls: string | undefined): void => {
    if (priceReader.startTag(tag, cls, (price) => card.prices.push(price))) return;
    for (const marker of SPONSORED_MARKERS) {
      if (hasClass(cls, marker)) card.sponsored = true;
    }
    if (tag.tagName === 'div' || tag.tagName === 'span') {
      const cy = attr(tag, 'data-cy');
      if (cy === 'delivery-recipe' && card.delivery === undefined) {
        capture((text) => (card.delivery ??= text || undefined));
      } else if (cy === 'reviews-block' && card.reviewsBlock === undefined) {
        capture((text) => (card.reviewsBlock ??= text));
      } else if ((hasClass(cls, 's-coupon-unclipped') || hasClass(cls, 's-coupon-clipped')) && card.coupon === undefined) {
        capture((text) => (card.coupon ??= text || undefined));
      } else if (hasClass(cls, 'a-badge-label-inner')) {
        capture((text) => {
          if (text !== '') card.badgeTexts.push(text);
        });
      }
    }
    switch (tag.tagName) {
      case 'a': {
        linkDepth++;
        stack.onClose(() => linkDepth--);
        if (heading) heading.linked = true;
        const href = attr(tag, 'href') ?? '';
        if (href.includes('/sspa/click')) card.sponsored = true;
        if (hasClass(cls, 's-access-detail-page')) card.linkTitle ??= attr(tag, 'title');
        if (href.includes('customerReviews') && card.reviewText === undefined && reviewLink === undefined) {
          const link = { hasStar: false };
          const label = attr(tag, 'aria-label');
          reviewLink = link;
          capture((text) => {
            reviewLink = undefined;
            if (link.hasStar) return;
            card.reviewText ??= text;
            if (label !== undefined) card.reviewLabel ??= label;
          });
        }
        return;
      }
      case 'h2': {
        if (heading) return;
        const started = { parts: captures.begin(), linked: linkDepth > 0 };
        heading = started;
        stack.onClose(() => {
          card.headings.push({ text: normalizeSpace(captures.end(started.parts)), linked: started.linked });
          heading = undefined;
        });
        return;
      }
      case 'img': {
        if (card.image === undefined && (hasClass(cls, 's-image') || hasClass(cls, 's-access-image'))) {
          card.image = attr(tag, 'src');
        }
        return;
      }
      case 'i': {
        if (cls !== undefined && (cls.includes('a-icon-star') || cls.includes('a-star-'))) {
          inStarIcon++;
          stack.onClose(() => inStarIcon--);
          if (reviewLink) reviewLink.hasStar = true;
        }
        if (hasClass(cls, 'a-icon-prime') || attr(tag, 'aria-label') === 'Amazon Prime') card.prime = true;
        return;
      }
      case 'span': {
        if (hasClass(cls, 'a-icon-alt') && inStarIcon > 0 && card.ratingText === undefined) {
          capture((text) => (card.ratingText ??= text));
        } else if (hasClass(cls, 's-price') && card.plainPrice === undefined) {
          capture((text) => (card.plainPrice ??= text));
        } else if (hasClass(cls, 'a-text-strike') && card.plainListPrice === undefined) {
          capture((text) => (card.plainListPrice ??= text));
        } else if (hasClass(cls, 's-prime') || hasClass(cls, 'a-icon-prime')) {
          card.prime = true;
        } else if (card.boughtText === undefined && hasClass(cls, 'a-color-secondary') && hasClass(cls, 'a-size-base')) {
          capture((text) => {
            if (card.boughtText === undefined && (BOUGHT_PAST_MONTH.test(text) || BOUGHT_PAST_MONTH_JA.test(text))) card.boughtText = text;
          });
        }
        return;
      }
      default:
        return;
    }
  };

  const handler = {
    startTag(tag: StartTag) {
      stack.open(tag.tagName);
      // Script, style, noscript, popover and expander-prompt content is no text of the page.
      if (stack.hidden) return;
      const cls = attr(tag, 'class');
      if (isChrome(cls)) {
        stack.hideTop();
        return;
      }
      if (draft === undefined) outsideCard(tag, cls);
      else insideCard(draft, tag, cls);
    },
    endTag(tag: EndTag) {
      stack.close(tag.tagName);
    },
    text(text: string) {
      if (!stack.hidden) captures.text(text);
    },
  };
  scanRegions(text, SEARCH_ANCHORS, handler, stack);

  const items: SearchItem[] = [];
  let organic = 0;
  for (const card of drafts) {
    const item = toItem(card, options, hint);
    if (item === undefined) continue;
    if (validateSearchItem(item) === undefined) continue;
    for (const field of SEARCH_ITEM_FIELDS) if (item[field] === undefined) item.missingFields.push(field);
    item.position = items.length + 1;
    if (!item.sponsored) item.rank = ++organic;
    else item.placement = card.widget ?? (organic === 0 ? 'top' : 'inline');
    items.push(item);
  }
  const page: SearchPage = { items, hasNextPage, recognized: drafts.length > 0 || resultsFrame || totalResultsText !== undefined };
  if (totalResultsText !== undefined) {
    page.totalResultsText = totalResultsText;
    const total = totalOf(totalResultsText);
    if (total !== undefined) page.totalResults = total;
  }
  if (relatedSearches.length > 0) page.relatedSearches = relatedSearches;
  const location = headerLocation(...deliveryLines);
  if (location !== undefined) page.deliverTo = location;
  return page;
}

/** The total of the result-count line: its largest number (`1-16 of over 10,000`, `10.000 以上のうち 1-48件`). */
function totalOf(text: string): number | undefined {
  let total: number | undefined;
  for (const match of text.matchAll(/\d+(?:[.,\u00a0\u202f ]\d{3})*/g)) {
    const value = parseCount(match[0]);
    if (value !== undefined && (total === undefined || value > total)) total = value;
  }
  return total;
}

function badgeOf(text: string): SearchBadge | undefined {
  if (/best\s*seller|bestseller|meilleure vente|más vendido|più venduto|ベストセラー/i.test(text)) return 'best_seller';
  if (/choice|choix|empfehlung|elección|scelta|おすすめ/i.test(text)) return 'amazons_choice';
  if (/deal|angebot|offre|oferta|offerta|タイムセール/i.test(text)) return 'limited_time_deal';
  return undefined;
}

/** Lower bound of `10K+ bought in past month`, `Mehr als 1.000 im letzten Monat gekauft`. */
function boughtInPastMonth(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const japanese = BOUGHT_PAST_MONTH_JA.exec(text);
  if (japanese?.[1]) {
    const count = Number(japanese[1].replace(/\D/g, '')) * (japanese[2] ? 10_000 : 1);
    return Number.isSafeInteger(count) ? count : undefined;
  }
  const match = BOUGHT_PAST_MONTH.exec(text);
  if (!match?.[1]) return undefined;
  const base = Number(match[1].replace(/\D/g, ''));
  const unit = match[2]?.toLowerCase();
  const factor = unit === 'k' || unit === 'mil' || unit?.startsWith('tsd') ? 1000 : unit === 'm' ? 1_000_000 : 1;
  return Number.isSafeInteger(base) ? base * factor : undefined;
}

function toItem(card: ItemDraft, options: ParseSearchPageOptions, hint: PriceHint): SearchItem | undefined {
  const title = pickTitle(card);
  if (title === undefined) return undefined;
  const item: SearchItem = {
    asin: card.asin,
    title,
    url: `${options.origin.replace(/\/+$/, '')}/dp/${card.asin}`,
    position: 0,
    sponsored: card.sponsored,
    prime: card.prime,
    missingFields: [],
  };
  const image = card.image === undefined ? undefined : absoluteUrl(card.image, options.origin);
  if (image !== undefined) item.image = image;
  const price = readPrice(pickPrice(card.prices)?.text ?? card.plainPrice, hint);
  if (price) item.price = price;
  const listPrice = readPrice(pickListPrice(card.prices)?.text ?? card.plainListPrice, hint);
  if (listPrice) item.listPrice = listPrice;
  const rating = card.ratingText === undefined ? undefined : parseRating(card.ratingText);
  if (rating !== undefined) item.rating = rating;
  const reviewCount = readReviewCount(card);
  if (reviewCount !== undefined) item.reviewCount = reviewCount;
  const badges = [...new Set(card.badgeTexts.map(badgeOf).filter((b) => b !== undefined))];
  if (badges.length > 0) item.badges = badges;
  if (card.coupon) item.coupon = card.coupon;
  if (card.delivery) item.delivery = card.delivery;
  const bought = boughtInPastMonth(card.boughtText ?? card.reviewsBlock);
  if (bought !== undefined) item.boughtInPastMonth = bought;
  if (options.keyword !== undefined) item.keyword = options.keyword;
  if (options.page !== undefined) item.page = options.page;
  return item;
}

function readPrice(text: string | undefined, hint: PriceHint): Price | undefined {
  return text === undefined ? undefined : parsePrice(text, hint);
}

function readReviewCount(card: ItemDraft): number | undefined {
  const fromLabel = card.reviewLabel === undefined ? undefined : parseCount(card.reviewLabel);
  if (fromLabel !== undefined) return fromLabel;
  return card.reviewText === undefined ? undefined : parseCount(card.reviewText);
}
