import type { StartTag } from 'parse5-sax-parser';
import { PriceElementReader, type PriceElement } from '../../html/price-element.ts';
import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

const PRICE_REGIONS: ReadonlySet<string> = new Set([
  'corePriceDisplay_desktop_feature_div',
  'corePrice_desktop',
  'corePrice_feature_div',
  'apex_desktop',
  'apex_desktop_newAccordionRow',
  'apex_offerDisplay_desktop',
  'corePriceDisplay_mobile_feature_div',
  'corePrice_mobile_feature_div',
  'apex_offerDisplay_mobile',
  'apex_mobile_feature_div',
]);

/**
 * Plain-text prices: the pre-2021 price blocks, and the buy-box prices of books and digital
 * editions (`#kindle-price`, the header `span#price` of a print format, `#newBuyBoxPrice`), which
 * are no `a-price` widgets.
 */
const PLAIN_PRICE_IDS: ReadonlySet<string> = new Set([
  'priceblock_ourprice',
  'priceblock_dealprice',
  'priceblock_saleprice',
  'kindle-price',
  'price',
  'newBuyBoxPrice',
  // 2019 buy boxes repeat the price to pay in the right column.
  'price_inside_buybox',
]);
/** Struck plain-text list prices of books (`#listPrice`) and e-books (`#digital-list-price`). */
const PLAIN_LIST_PRICE_IDS: ReadonlySet<string> = new Set(['listPrice', 'digital-list-price']);
const SAVINGS_LABEL = /you save|sie sparen|économisez|ahorras|ahorra|risparmi|je bespaart|du sparar|oszczędzasz|kazancınız|割引|economize/i;

/**
 * The buy-box price widgets (every `a-price` inside a price region, with the label of the table row
 * it is in), the savings and the plain-text prices.
 */
export class PriceRegion implements IdRegion {
  readonly ids: readonly string[] = [...PRICE_REGIONS, ...PLAIN_PRICE_IDS, ...PLAIN_LIST_PRICE_IDS];
  depth = 0;
  private row: { label: string | undefined; cells: number } | undefined;
  private readonly scan: PageScan;
  private readonly reader: PriceElementReader;
  private readonly push: (price: PriceElement) => void;

  constructor(scan: PageScan) {
    this.scan = scan;
    this.reader = new PriceElementReader(scan.stack, scan.captures);
    this.push = (price) => {
      const rowLabel = this.row?.label;
      scan.found.prices.push(rowLabel === undefined ? price : { ...price, rowLabel });
    };
  }

  /** True when the tag is part of a price widget being read: then nothing else looks at it. */
  widgetTag(tag: StartTag, cls: string | undefined): boolean {
    if (this.depth === 0 && !this.reader.reading) return false;
    return this.reader.startTag(tag, cls, this.push);
  }

  onId(id: string, tag: StartTag): void {
    const found = this.scan.found;
    if (PRICE_REGIONS.has(id)) this.scan.enter(this);
    else if (PLAIN_PRICE_IDS.has(id)) {
      // `div#price` is the legacy block around the priceblock rows, not a price.
      if (id === 'price' && tag.tagName !== 'span') return;
      this.scan.capture((text) => (found.legacyPrice ??= normalizeSpace(text) || undefined));
    } else if (PLAIN_LIST_PRICE_IDS.has(id)) {
      // `Digitaler Listenpreis: 14,99 €`: the label is no part of the price.
      this.scan.capture((text) => (found.legacyListPrice ??= normalizeSpace(text).replace(/^[^:：]*[:：]\s*/, '') || undefined));
    }
  }

  spanTag(cls: string | undefined): void {
    const found = this.scan.found;
    if (hasClass(cls, 'priceBlockStrikePriceString')) {
      this.scan.capture((text) => (found.legacyListPrice ??= normalizeSpace(text)));
    } else if (this.depth > 0 && hasClass(cls, 'savingsPercentage')) {
      this.scan.capture((text) => (found.savingsPercentText ??= normalizeSpace(text) || undefined));
    }
  }

  /** Rows of the apex price table: the first cell labels the row ("List Price:", "You Save:"). */
  tableTag(name: string): void {
    if (name === 'tr') {
      const started = { label: undefined as string | undefined, cells: 0 };
      this.row = started;
      this.scan.stack.onClose(() => {
        if (this.row === started) this.row = undefined;
      });
      return;
    }
    const row = this.row;
    if (name !== 'td' || row === undefined) return;
    row.cells++;
    if (row.cells === 1) this.scan.capture((text) => (row.label = normalizeSpace(text)));
    else if (row.cells === 2 && row.label !== undefined && SAVINGS_LABEL.test(row.label)) {
      this.scan.capture((text) => (this.scan.found.savingsPercentText ??= normalizeSpace(text) || undefined));
    }
  }
}
