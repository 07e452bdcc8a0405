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

/** Pre-2021 price blocks, plain text instead of `a-price` widgets. */
const LEGACY_PRICE_IDS: ReadonlySet<string> = new Set(['priceblock_ourprice', 'priceblock_dealprice', 'priceblock_saleprice']);

/** The buy-box price widgets (every `a-price` inside a price region) and the legacy price texts. */
export class PriceRegion implements IdRegion {
  readonly ids: readonly string[] = [...PRICE_REGIONS, ...LEGACY_PRICE_IDS];
  depth = 0;
  private readonly scan: PageScan;
  private readonly reader: PriceElementReader;
  private readonly push: (price: PriceElement) => void;

  constructor(scan: PageScan) {
    this.scan = scan;
    this.reader = new PriceElementReader(scan.stack, scan.captures);
    this.push = (price) => {
      scan.found.prices.push(price);
    };
  }

  /** True when the tag is part of a price widget being read: then nothing else looks at it. */
  widgetTag(tag: StartTag, cls: string | undefined): boolean {
    if (this.depth === 0 && !this.reader.reading) return false;
    return this.reader.startTag(tag, cls, this.push);
  }

  onId(id: string): void {
    if (PRICE_REGIONS.has(id)) this.scan.enter(this);
    else if (LEGACY_PRICE_IDS.has(id)) this.scan.capture((text) => (this.scan.found.legacyPrice ??= normalizeSpace(text)));
  }

  spanTag(cls: string | undefined): void {
    if (hasClass(cls, 'priceBlockStrikePriceString')) {
      this.scan.capture((text) => (this.scan.found.legacyListPrice ??= normalizeSpace(text)));
    }
  }
}
