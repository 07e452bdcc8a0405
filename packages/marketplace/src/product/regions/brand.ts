import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

/** The brand: the "Brand" row of the product overview table, else (at assembly) the byline. */
export class BrandRegion implements IdRegion {
  readonly ids: readonly string[] = ['bylineInfo'];
  /** Inside a `tr.po-brand` row. */
  depth = 0;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    if (id !== 'bylineInfo') return;
    this.scan.capture((text) => (this.scan.found.byline ??= normalizeSpace(text)));
  }

  startTag(name: string, cls: string | undefined): void {
    if (name === 'tr' && hasClass(cls, 'po-brand')) this.scan.enter(this);
    else if (this.depth > 0 && name === 'td' && hasClass(cls, 'a-span9')) {
      this.scan.capture((text) => (this.scan.found.poBrand ??= normalizeSpace(text) || undefined));
    }
  }
}
