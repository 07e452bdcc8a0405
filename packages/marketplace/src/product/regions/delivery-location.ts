import { normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

/** The id of the header line naming the delivery location (`Deliver to` is line 1). */
export const DELIVERY_LOCATION_ID = 'glow-ingress-line2';

/** The delivery location in the page header: what a job's `config.deliveryZip` resulted in. */
export class DeliveryLocationRegion implements IdRegion {
  readonly ids: readonly string[] = [DELIVERY_LOCATION_ID];
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(): void {
    const found = this.scan.found;
    this.scan.capture((text) => (found.deliverTo ??= normalizeSpace(text) || undefined));
  }
}
