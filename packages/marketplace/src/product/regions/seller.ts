import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import type { Depth, IdRegion, PageScan } from '../page-scan.ts';

const MERCHANT_IDS: ReadonlySet<string> = new Set(['merchantInfoFeature_feature_div', 'merchant-info']);
const FULFILLER_ID = 'fulfillerInfoFeature_feature_div';
const SOLD_BY_LABEL = /^(?:Sold by|Verkäufer|Vendu par|Vendido por|Venduto da|販売元|Verkocht door|Säljs av|Sprzedawca|Satıcı)$/i;
const SHIPS_FROM_LABEL =
  /^(?:Ships from|Dispatches from|Versand|Versand durch|Expédié par|Enviado por|Enviado desde|Spedito da|出荷元|Verzonden door|Skickas från|Wysyłka z|Gönderici)$/i;

/**
 * The seller: the seller profile link, else the offer text of the merchant block or of the buy
 * box's "Sold by" row, else (at assembly) the "sold by …" sentence of the legacy merchant text.
 * Likewise who ships the offer: the "Ships from" row or the fulfiller block.
 */
export class SellerRegion implements IdRegion {
  readonly ids: readonly string[] = [...MERCHANT_IDS, FULFILLER_ID, 'sellerProfileTriggerId'];
  private readonly merchant: Depth = { depth: 0 };
  private readonly soldBy: Depth = { depth: 0 };
  private readonly shipsFrom: Depth = { depth: 0 };
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const found = this.scan.found;
    if (MERCHANT_IDS.has(id)) {
      this.scan.enter(this.merchant);
      if (id === 'merchant-info') this.scan.capture((text) => (found.merchantText ??= normalizeSpace(text)));
    } else if (id === FULFILLER_ID) {
      this.scan.enter(this.shipsFrom);
    } else if (id === 'sellerProfileTriggerId') {
      this.scan.capture((text) => (found.seller ??= normalizeSpace(text)));
    }
  }

  /** The offer text inside the merchant block, the "Sold by" or the "Ships from" row. */
  spanTag(cls: string | undefined): void {
    if (this.merchant.depth === 0 && this.soldBy.depth === 0 && this.shipsFrom.depth === 0) return;
    if (hasClass(cls, 'offer-display-feature-text-message') || hasClass(cls, 'tabular-buybox-text-message')) {
      const found = this.scan.found;
      if (this.shipsFrom.depth > 0) this.scan.capture((text) => (found.shipsFrom ??= normalizeSpace(text) || undefined));
      else this.scan.capture((text) => (found.seller ??= normalizeSpace(text) || undefined));
    }
  }

  /** Any element may be the buy box's "Sold by" or "Ships from" row. */
  tabularTag(tag: StartTag): void {
    const tabular = attr(tag, 'tabular-attribute-name');
    if (tabular === undefined) return;
    if (SOLD_BY_LABEL.test(tabular)) this.scan.enter(this.soldBy);
    else if (SHIPS_FROM_LABEL.test(tabular)) this.scan.enter(this.shipsFrom);
  }
}
