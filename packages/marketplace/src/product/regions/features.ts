import { hasClass, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

// Kindle device pages keep theirs in `kindle-feature-bullets-atf`.
const FEATURE_REGIONS: readonly string[] = ['feature-bullets', 'featurebullets_feature_div', 'feature-bullets-btf', 'kindle-feature-bullets-atf'];

/** "About this item": one feature per visible top-level `li` (nested lists belong to their bullet). */
export class FeaturesRegion extends ContainerRegion {
  private open = false;

  constructor(scan: PageScan) {
    super(scan, FEATURE_REGIONS);
  }

  startTag(name: string, cls: string | undefined): void {
    if (this.depth === 0 || name !== 'li' || this.open || hasClass(cls, 'aok-hidden')) return;
    this.open = true;
    this.scan.capture((text) => {
      this.open = false;
      const value = normalizeSpace(text);
      if (value !== '') this.scan.found.features.push(value);
    });
  }
}
