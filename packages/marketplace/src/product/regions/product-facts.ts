import { hasClass, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

const FACTS_REGIONS: readonly string[] = ['productFactsDesktop_feature_div', 'productFactsDesktopExpander'];

/**
 * The newer "product facts" block that replaces the feature bullets on many pages: label and value
 * rows (`Material`, `Fit type`), then "About this item" as a list. The rows are overview
 * specifications; each top-level list item is a feature.
 */
export class ProductFactsRegion extends ContainerRegion {
  private item = false;
  private fact: { label?: string; value?: string } | undefined;

  constructor(scan: PageScan) {
    super(scan, FACTS_REGIONS);
  }

  startTag(name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    const { scan } = this;
    if (name === 'li' && !this.item && this.fact === undefined && !hasClass(cls, 'aok-hidden')) {
      this.item = true;
      scan.capture((text) => {
        this.item = false;
        const value = normalizeSpace(text);
        if (value !== '') scan.found.features.push(value);
      });
      return;
    }
    if (name !== 'div') return;
    if (this.fact === undefined && hasClass(cls, 'product-facts-detail')) {
      const started: { label?: string; value?: string } = {};
      this.fact = started;
      scan.stack.onClose(() => {
        this.fact = undefined;
        if (started.label && started.value) scan.found.infoRows.push({ label: started.label, value: started.value, section: 'overview', links: [] });
      });
      return;
    }
    const fact = this.fact;
    if (fact === undefined) return;
    if (hasClass(cls, 'a-col-left')) scan.capture((text) => (fact.label ??= normalizeSpace(text) || undefined));
    else if (hasClass(cls, 'a-col-right')) scan.capture((text) => (fact.value ??= normalizeSpace(text) || undefined));
  }
}
