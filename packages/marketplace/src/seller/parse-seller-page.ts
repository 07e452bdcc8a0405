import type { EndTag, StartTag } from 'parse5-sax-parser';
import { isChrome } from '../html/chrome.ts';
import { ElementStack } from '../html/element-stack.ts';
import { LINE_BREAKS } from '../html/markup-text.ts';
import { pageText } from '../html/page-text.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { absoluteUrl, attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { cleanValue } from '../fields/validate-product.ts';
import { sellerIdOfHref } from '../offers/offer-values.ts';
import { businessRows, type BusinessRows } from './business-rows.ts';
import { feedbackCounts, type TableRow } from './feedback-table.ts';
import { feedbackSummary } from './feedback-summary.ts';
import { SELLER_FIELDS, type ParseSellerPageOptions, type SellerLayout, type SellerPage, type SellerProfile } from './types.ts';

const NAME_IDS: ReadonlyMap<string, SellerLayout> = new Map([
  ['sellerName', 'classic'],
  ['sellerName-rd', 'redesign'],
  ['seller-name', 'redesign'],
]);
const SUMMARY_IDS = new Set(['seller-feedback-summary', 'seller-feedback-summary-rd', 'seller-info-feedback-summary']);
const TABLE_ID = 'feedback-summary-table';
// The 2022 page's detailed seller information; the older page lists the same rows in the profile container.
const DETAIL_ID = 'page-section-detail-seller-info';
const CLASSIC_CONTAINER = 'seller-profile-container';

const SELLER_ANCHORS: RegionAnchors = {
  ids: new Set([...NAME_IDS.keys(), ...SUMMARY_IDS, TABLE_ID, DETAIL_ID, CLASSIC_CONTAINER]),
  needles: [
    { text: '?me=', accept: (startTag) => /^<a\s/i.test(startTag) },
    { text: '&me=', accept: (startTag) => /^<a\s/i.test(startTag) },
    { text: '&amp;me=', accept: (startTag) => /^<a\s/i.test(startTag) },
  ],
};

/**
 * Reads a seller's profile page (`/sp?seller=<id>`) in one streaming pass, in either layout (the
 * classic page and the 2022 redesign); see docs/marketplace.md.
 */
export function parseSellerPage(html: string | Uint8Array, options: ParseSellerPageOptions): SellerPage {
  const page = pageText(html);
  const asked = options.sellerId.toUpperCase();
  const stack = new ElementStack();
  const captures = new TextCaptures();
  let layout: SellerLayout | undefined;
  let name: string | undefined;
  let summary: string | undefined;
  const rows: TableRow[] = [];
  let row: TableRow | undefined;
  let inTable = 0;
  let lineCaptures = 0;
  // Business rows from the detail section (preferred) and from the classic container's lists.
  let detailLines: string[] | undefined;
  const listLines: string[][] = [];
  let inContainer = 0;
  let inList = 0;
  let storefrontHref: string | undefined;
  const otherSellerIds = new Set<string>();

  const capture = (set: (text: string) => void): void => {
    const parts = captures.begin();
    stack.onClose(() => set(normalizeSpace(captures.end(parts))));
  };
  const captureLines = (set: (lines: string[]) => void): void => {
    const parts = captures.begin();
    lineCaptures++;
    stack.onClose(() => {
      lineCaptures--;
      set(captures.end(parts).split('\n').map(normalizeSpace));
    });
  };

  const onStart = (tag: StartTag, id: string | undefined): void => {
    const tagName = tag.tagName;
    if (id !== undefined) {
      const nameLayout = NAME_IDS.get(id);
      if (nameLayout !== undefined) {
        layout ??= nameLayout;
        return capture((text) => (name ??= text || undefined));
      }
      if (SUMMARY_IDS.has(id)) return capture((text) => (summary ??= text || undefined));
      if (id === TABLE_ID) {
        inTable++;
        stack.onClose(() => inTable--);
        return;
      }
      if (id === DETAIL_ID) {
        layout = 'redesign';
        return captureLines((lines) => (detailLines ??= lines));
      }
      if (id === CLASSIC_CONTAINER) {
        inContainer++;
        stack.onClose(() => inContainer--);
        return;
      }
    }
    if (inTable > 0) {
      if (tagName === 'tr') {
        const started: TableRow = { cells: [], hasData: false };
        row = started;
        stack.onClose(() => {
          rows.push(started);
          row = undefined;
        });
      } else if ((tagName === 'td' || tagName === 'th') && row !== undefined) {
        const cellRow = row;
        if (tagName === 'td') cellRow.hasData = true;
        capture((text) => cellRow.cells.push(text));
      }
      return;
    }
    if (tagName === 'a') {
      const href = attr(tag, 'href') ?? '';
      const id = sellerIdOfHref(href.replace(/&amp;/g, '&'), 'me');
      if (id === undefined) return;
      if (id === asked) storefrontHref ??= href;
      else otherSellerIds.add(id);
      return;
    }
    if (inContainer > 0 && inList === 0 && tagName === 'ul') {
      inList++;
      stack.onClose(() => inList--);
      captureLines((lines) => listLines.push(lines));
    }
  };

  scanRegions(
    page,
    SELLER_ANCHORS,
    {
      startTag(tag: StartTag) {
        stack.open(tag.tagName);
        if (stack.hidden) return;
        if (lineCaptures > 0 && LINE_BREAKS.has(tag.tagName)) captures.text('\n');
        const cls = attr(tag, 'class');
        // The star icon's screen-reader text ("4.5 out of 5 stars") sits inside the summary line.
        if (isChrome(cls) || hasClass(cls, 'a-icon-alt')) {
          stack.hideTop();
          return;
        }
        onStart(tag, attr(tag, 'id'));
      },
      endTag(tag: EndTag) {
        stack.close(tag.tagName);
      },
      text(text: string) {
        if (!stack.hidden) captures.text(text);
      },
    },
    stack,
  );

  const shown = name !== undefined || summary !== undefined || rows.length > 0;
  if (!shown || (otherSellerIds.size > 0 && storefrontHref === undefined)) return { recognized: false };
  const seller: SellerProfile = { sellerId: asked, missingFields: [] };
  const cleanName = cleanValue(name);
  if (cleanName) seller.name = cleanName;
  const { percent, count } = summary === undefined ? {} : feedbackSummary(summary);
  if (percent !== undefined) seller.ratingPercent = percent;
  if (count !== undefined) seller.ratingCount = count;
  const feedback = feedbackCounts(rows);
  if (feedback) seller.feedback = feedback;
  const business = pickBusinessRows(detailLines, listLines);
  const businessName = cleanValue(business.businessName);
  if (businessName) seller.businessName = businessName;
  const businessAddress = cleanValue(business.businessAddress);
  if (businessAddress) seller.businessAddress = businessAddress;
  const storefront = storefrontHref === undefined ? undefined : absoluteUrl(storefrontHref, options.origin);
  if (storefront) seller.storefrontUrl = storefront;
  for (const field of SELLER_FIELDS) if (seller[field] === undefined) seller.missingFields.push(field);
  return { recognized: true, layout: layout ?? 'classic', seller };
}

function pickBusinessRows(detailLines: string[] | undefined, listLines: readonly string[][]): BusinessRows {
  if (detailLines !== undefined) {
    const rows = businessRows(detailLines);
    if (rows.businessName !== undefined || rows.businessAddress !== undefined) return rows;
  }
  for (const lines of listLines) {
    const rows = businessRows(lines);
    if (rows.businessName !== undefined || rows.businessAddress !== undefined) return rows;
  }
  return {};
}
