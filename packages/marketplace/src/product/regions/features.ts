import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

const FEATURE_REGIONS: ReadonlySet<string> = new Set(['feature-bullets', 'featurebullets_feature_div', 'feature-bullets-btf']);

/** "About this item": one feature per visible top-level `li` (nested lists belong to their bullet). */
export class FeaturesRegion implements IdRegion {
  readonly ids: readonly string[] = [...FEATURE_REGIONS];
  depth = 0;
  private open = false;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    if (!FEATURE_REGIONS.has(id)) return;
    this.scan.enter(this);
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
