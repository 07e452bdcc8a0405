import type { EndTag, StartTag } from 'parse5-sax-parser';
import { cleanValue } from '../fields/validate-product.ts';
import { isChrome } from '../html/chrome.ts';
import { ElementStack } from '../html/element-stack.ts';
import { pageText } from '../html/page-text.ts';
import { PriceElementReader } from '../html/price-element.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { absoluteUrl, attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { pageMarketplace, priceHintFor } from '../locale-context.ts';
import { parseCount, parseRating } from '../numbers.ts';
import { parsePrice, type PriceHint } from '../price.ts';
import { pathToSelected, type TreeEntry } from './browse-tree.ts';
import { BESTSELLER_ITEM_FIELDS, type BestsellerItem, type BestsellersPage, type ParseBestsellersPageOptions } from './types.ts';

const ASIN = /^[A-Z0-9]{10}$/;
const ASIN_IN_HREF = /\/(?:dp|gp\/product)\/([A-Z0-9]{10})(?:[/?#]|$)/;
const ASIN_IN_METADATA = /"asin"\s*:\s*"([A-Z0-9]{10})"/;
const PER_PAGE = 50;

// The list's frame: the older ordered list, the newer grid, and the page's own banner and tree.
const LIST_IDS = ['zg-ordered-list', 'zg-center-div'];
const GRID_CLASS = 'p13n-desktop-grid';
const TREE_IDS = ['zg_browseRoot', 'zg-left-col'];
const BANNER_IDS = ['zg_banner_text', 'zg_listTitle'];

/**
 * Cards: the older `li.zg-item-immersion` and the newer `div#gridItemRoot` (both hold the rank
 * badge), and the faceouts inside them (`.zg-grid-general-faceout`, `.p13n-sc-uncoverable-faceout`
 * with the ASIN) where a page has no outer card. A faceout outside the list (a carousel of the
 * browsing history) has no badge and is not in the list's frame: it is no item.
 */
function cardKind(tag: StartTag, cls: string | undefined): boolean {
  if (tag.tagName === 'li') return hasClass(cls, 'zg-item-immersion');
  if (tag.tagName !== 'div') return false;
  return attr(tag, 'id') === 'gridItemRoot' || hasClass(cls, 'zg-grid-general-faceout') || hasClass(cls, 'p13n-sc-uncoverable-faceout');
}

const BESTSELLER_ANCHORS: RegionAnchors = {
  ids: new Set([...LIST_IDS, ...TREE_IDS, ...BANNER_IDS, 'gridItemRoot']),
  needles: [
    { text: GRID_CLASS, accept: (startTag) => /\sclass=["'][^"']*\bp13n-desktop-grid\b/.test(startTag) },
    { text: 'zg-item-immersion', accept: (startTag) => /^<li\s/i.test(startTag) },
    { text: 'zg-grid-general-faceout', accept: (startTag) => /^<div\s/i.test(startTag) },
    { text: 'role="tree"', accept: (startTag) => /zg|browse/i.test(startTag) },
  ],
};

interface CardDraft {
  asin: string | undefined;
  badge: string | undefined;
  titles: string[];
  fullTitle: string | undefined;
  imageAlt: string | undefined;
  image: string | undefined;
  priceText: string | undefined;
  ratingText: string | undefined;
  reviewText: string | undefined;
  ratingLabel: string | undefined;
  inList: boolean;
}

/**
 * Reads a best-seller, new-release or movers & shakers page in one streaming pass; see
 * docs/marketplace.md for the layouts.
 */
export function parseBestsellersPage(html: string | Uint8Array, options: ParseBestsellersPageOptions): BestsellersPage {
  const text = pageText(html);
  const hint = priceHintFor(pageMarketplace(options.origin, options.marketplace, text));
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const priceReader = new PriceElementReader(stack, captures);
  const cards: CardDraft[] = [];
  const tree: TreeEntry[] = [];
  let card: CardDraft | undefined;
  let listDepth = 0;
  let treeDepth = 0;
  let inTree = 0;
  let inIconRow = 0;
  let inStar = 0;
  let listFrame = false;
  let treeFrame = false;
  let heading: string | undefined;
  let listedAsins = 0;

  const capture = (set: (value: string) => void): void => {
    const parts = captures.begin();
    stack.onClose(() => set(normalizeSpace(captures.end(parts))));
  };

  const outsideCard = (tag: StartTag, cls: string | undefined): void => {
    const id = attr(tag, 'id');
    if ((id !== undefined && LIST_IDS.includes(id)) || hasClass(cls, GRID_CLASS)) {
      listFrame = true;
      listDepth++;
      stack.onClose(() => listDepth--);
      const recs = attr(tag, 'data-client-recs-list');
      if (recs !== undefined) listedAsins = Math.max(listedAsins, recs.match(/"id"\s*:\s*"[A-Z0-9]{10}"/g)?.length ?? 0);
    }
    if ((id !== undefined && TREE_IDS.includes(id)) || (attr(tag, 'role') === 'tree' && inTree === 0)) {
      treeFrame = true;
      inTree++;
      stack.onClose(() => inTree--);
      return;
    }
    if (id !== undefined && BANNER_IDS.includes(id) && heading === undefined) {
      capture((value) => (heading ??= value || undefined));
      return;
    }
    if (inTree > 0) return treeTag(tag, cls);
    if (cardKind(tag, cls)) startCard(tag);
  };

  // The tree nests `ul` (older) or `div[role=group]` (newer); an entry is an `li` or a `treeitem`.
  const treeTag = (tag: StartTag, cls: string | undefined): void => {
    if (tag.tagName === 'ul' || attr(tag, 'role') === 'group') {
      treeDepth++;
      stack.onClose(() => treeDepth--);
      return;
    }
    const selected = hasClass(cls, 'zg_selected') || (cls?.includes('zg-selected') ?? false) || attr(tag, 'aria-current') === 'page';
    if (tag.tagName === 'a' || selected) {
      const entry: TreeEntry = { depth: treeDepth, name: '', href: tag.tagName === 'a' ? attr(tag, 'href') : undefined, selected };
      capture((value) => {
        entry.name = value;
        if (value !== '') tree.push(entry);
      });
    }
  };

  const startCard = (tag: StartTag): void => {
    const started: CardDraft = {
      asin: undefined,
      badge: undefined,
      titles: [],
      fullTitle: undefined,
      imageAlt: undefined,
      image: undefined,
      priceText: undefined,
      ratingText: undefined,
      reviewText: undefined,
      ratingLabel: undefined,
      inList: listDepth > 0,
    };
    card = started;
    readAsin(started, tag);
    stack.onClose(() => {
      cards.push(started);
      card = undefined;
      inIconRow = 0;
      inStar = 0;
    });
  };

  const readAsin = (draft: CardDraft, tag: StartTag): void => {
    if (draft.asin !== undefined) return;
    const asin = attr(tag, 'data-asin') ?? (ASIN.test(attr(tag, 'id') ?? '') ? attr(tag, 'id') : undefined);
    const fromMetadata = ASIN_IN_METADATA.exec(attr(tag, 'data-p13n-asin-metadata') ?? '')?.[1];
    const found = asin !== undefined && ASIN.test(asin) ? asin : fromMetadata;
    if (found !== undefined) draft.asin = found;
  };

  const insideCard = (draft: CardDraft, tag: StartTag, cls: string | undefined): void => {
    if (priceReader.startTag(tag, cls, (price) => (draft.priceText ??= price.strike ? undefined : price.text))) return;
    readAsin(draft, tag);
    const name = tag.tagName;
    if (name === 'span' && (hasClass(cls, 'zg-bdg-text') || hasClass(cls, 'zg-badge-text'))) {
      capture((value) => (draft.badge ??= value));
      return;
    }
    if (name === 'a') {
      const href = attr(tag, 'href') ?? '';
      const linked = ASIN_IN_HREF.exec(href)?.[1];
      if (draft.asin === undefined && linked !== undefined) draft.asin = linked;
      if (inIconRow > 0) {
        const label = attr(tag, 'aria-label') ?? attr(tag, 'title');
        if (label !== undefined) draft.ratingLabel ??= label;
        if (hasClass(cls, 'a-size-small')) capture((value) => (draft.reviewText ??= value || undefined));
      }
      return;
    }
    if (name === 'img') {
      draft.image ??= attr(tag, 'src');
      draft.imageAlt ??= attr(tag, 'alt');
      return;
    }
    if (name === 'div' && hasClass(cls, 'a-icon-row')) {
      inIconRow++;
      stack.onClose(() => inIconRow--);
      return;
    }
    if (name === 'i' && cls !== undefined && (cls.includes('a-icon-star') || cls.includes('a-star-'))) {
      inStar++;
      stack.onClose(() => inStar--);
      return;
    }
    if (cls === undefined) return;
    if (name === 'span' && cls.includes('p13n-sc-price')) {
      capture((value) => (draft.priceText ??= value || undefined));
      return;
    }
    if (name === 'span' && hasClass(cls, 'a-icon-alt') && inStar > 0) {
      capture((value) => (draft.ratingText ??= value || undefined));
      return;
    }
    if (name === 'span' && hasClass(cls, 'a-size-small') && inIconRow > 0 && inStar === 0) {
      capture((value) => (draft.reviewText ??= value || undefined));
      return;
    }
    if (cls.includes('p13n-sc-css-line-clamp') || cls.includes('p13n-sc-truncate') || cls.includes('p13n-sc-line-clamp')) {
      // An older truncated title keeps the whole title in its `title` attribute.
      draft.fullTitle ??= attr(tag, 'title');
      capture((value) => {
        if (value !== '') draft.titles.push(value);
      });
    }
  };

  const handler = {
    startTag(tag: StartTag) {
      stack.open(tag.tagName);
      if (stack.hidden) return;
      const cls = attr(tag, 'class');
      if (isChrome(cls)) {
        stack.hideTop();
        return;
      }
      if (card === undefined) outsideCard(tag, cls);
      else insideCard(card, tag, cls);
    },
    endTag(tag: EndTag) {
      stack.close(tag.tagName);
    },
    text(value: string) {
      if (!stack.hidden) captures.text(value);
    },
  };
  scanRegions(text, BESTSELLER_ANCHORS, handler, stack);

  const offset = ((options.page ?? 1) - 1) * PER_PAGE;
  const items: BestsellerItem[] = [];
  const seen = new Set<string>();
  for (const draft of cards) {
    const badgeRank = draft.badge === undefined ? undefined : parseCount(draft.badge);
    if (badgeRank === undefined && !draft.inList) continue;
    const item = toItem(draft, badgeRank ?? offset + items.length + 1, options, hint);
    if (item === undefined || seen.has(item.asin)) continue;
    seen.add(item.asin);
    items.push(item);
  }
  const page: BestsellersPage = {
    items,
    unrenderedCount: Math.max(0, listedAsins - items.length),
    recognized: items.length > 0 || (listFrame && (treeFrame || heading !== undefined)),
  };
  const categoryPath = pathToSelected(tree);
  if (categoryPath !== undefined) page.categoryPath = categoryPath;
  const categoryName = cleanValue(categoryPath?.at(-1)?.name) ?? categoryFromHeading(heading);
  if (categoryName !== undefined) page.categoryName = categoryName;
  return page;
}

// "Best Sellers in Headphones", "Bestseller in Kopfhörer", "Meilleures ventes en Casques",
// "Hot New Releases in …", "Movers & Shakers in …", "売れ筋ランキング: …": the category after the lead-in.
const LIST_NAME = String.raw`(?:amazon\s+)?(?:best\s*sellers?|hot new releases|new releases|movers (?:&|and) shakers|neuerscheinungen|meilleures ventes|nouveautés|los más vendidos|novedades|i più venduti|novità|売れ筋ランキング|新着ランキング|人気度ランキング)`;
const HEADING_LEAD_IN = new RegExp(String.raw`^${LIST_NAME}(?:\s+(?:in|en|em|dans|di)\s+|\s*[:：]\s*)`, 'i');
const LIST_NAME_ONLY = new RegExp(`^${LIST_NAME}$`, 'i');

/** The category a heading names; none when it names only the list ("Amazon Best Sellers"). */
function categoryFromHeading(heading: string | undefined): string | undefined {
  const value = cleanValue(heading);
  if (value === undefined || LIST_NAME_ONLY.test(value)) return undefined;
  return cleanValue(value.replace(HEADING_LEAD_IN, ''));
}

function toItem(draft: CardDraft, rank: number, options: ParseBestsellersPageOptions, hint: PriceHint): BestsellerItem | undefined {
  if (draft.asin === undefined) return undefined;
  const title = cleanValue(draft.fullTitle) ?? cleanValue(draft.titles[0]) ?? cleanValue(draft.imageAlt);
  if (title === undefined) return undefined;
  const item: BestsellerItem = { rank, asin: draft.asin, title, url: `${options.origin.replace(/\/+$/, '')}/dp/${draft.asin}`, missingFields: [] };
  const price = draft.priceText === undefined ? undefined : parsePrice(draft.priceText, hint);
  if (price !== undefined) item.price = price;
  const rating = parseRating(draft.ratingText ?? draft.ratingLabel ?? '');
  if (rating !== undefined) item.rating = rating;
  const reviewCount = draft.reviewText === undefined ? undefined : parseCount(draft.reviewText);
  if (reviewCount !== undefined) item.reviewCount = reviewCount;
  const image = draft.image === undefined || draft.image.startsWith('data:') ? undefined : absoluteUrl(draft.image, options.origin);
  if (image !== undefined) item.image = image;
  for (const field of BESTSELLER_ITEM_FIELDS) if (item[field] === undefined) item.missingFields.push(field);
  return item;
}
