import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { Depth, IdRegion, PageScan } from '../page-scan.ts';

const COUPON_IDS: ReadonlySet<string> = new Set(['promoPriceBlockMessage_feature_div', 'vpcButton']);
const DELIVERY_IDS: ReadonlySet<string> = new Set(['mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE', 'deliveryBlockMessage']);
const OTHER_OFFER_IDS: ReadonlySet<string> = new Set(['olpLinkWidget_feature_div', 'dynamic-aod-ingress-box', 'olp_feature_div']);

/**
 * What the buy box says beside the price: the coupon (the label of its checkbox), the deal badge,
 * the delivery promise (the primary message, else the whole block), the other sellers' offers
 * line and a Prime badge (an `a-icon-prime` in a price or delivery block).
 */
export class OfferExtrasRegion implements IdRegion {
  readonly ids: readonly string[] = [...COUPON_IDS, ...DELIVERY_IDS, ...OTHER_OFFER_IDS, 'dealBadge_feature_div'];
  readonly coupon: Depth = { depth: 0 };
  readonly delivery: Depth = { depth: 0 };
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const { found } = this.scan;
    if (COUPON_IDS.has(id)) this.scan.enter(this.coupon);
    else if (DELIVERY_IDS.has(id)) {
      this.scan.enter(this.delivery);
      const primary = id !== 'deliveryBlockMessage';
      this.scan.capture((text) => {
        const value = normalizeSpace(text);
        if (value === '') return;
        if (primary) found.delivery ??= value;
        else found.deliveryBlock ??= value;
      });
    } else if (OTHER_OFFER_IDS.has(id)) {
      this.scan.capture((text) => (found.otherOffersText ??= normalizeSpace(text) || undefined));
    } else if (id === 'dealBadge_feature_div') {
      this.scan.capture((text) => (found.deal ??= normalizeSpace(text) || undefined));
    }
  }

  /** A tag inside a coupon block: its label (or the older `couponLabelText` span) is the coupon text. */
  couponTag(name: string, cls: string | undefined): void {
    if (name === 'label' || (name === 'span' && hasClass(cls, 'couponLabelText'))) {
      const found = this.scan.found;
      if (found.coupon === undefined) this.scan.capture((text) => (found.coupon ??= normalizeSpace(text) || undefined));
    }
  }

  /** An `<i>` inside a price or delivery block. */
  iconTag(cls: string | undefined): void {
    if (hasClass(cls, 'a-icon-prime')) this.scan.found.prime = true;
  }
}
