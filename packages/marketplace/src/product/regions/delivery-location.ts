import { normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

/** The ids of the header's two delivery lines (see `headerLocation` for which names the place). */
export const DELIVERY_LINE_IDS = ['glow-ingress-line1', 'glow-ingress-line2'] as const;

/** The delivery location in the page header: what a job's `config.deliveryZip` resulted in. */
export class DeliveryLocationRegion implements IdRegion {
  readonly ids: readonly string[] = DELIVERY_LINE_IDS;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const lines = this.scan.found.deliveryLines;
    const line = id === 'glow-ingress-line1' ? 0 : 1;
    this.scan.capture((text) => (lines[line] ??= normalizeSpace(text) || undefined));
  }
}
