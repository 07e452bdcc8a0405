import { normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

const BREADCRUMB_REGIONS: ReadonlySet<string> = new Set(['wayfinding-breadcrumbs_feature_div', 'wayfinding-breadcrumbs_container']);

/** The category path: each link of the breadcrumb, top category first. */
export class BreadcrumbRegion implements IdRegion {
  readonly ids: readonly string[] = [...BREADCRUMB_REGIONS];
  depth = 0;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    if (!BREADCRUMB_REGIONS.has(id)) return;
    this.scan.enter(this);
  }

  startTag(name: string): void {
    if (this.depth === 0 || name !== 'a') return;
    this.scan.capture((text) => {
      const value = normalizeSpace(text);
      if (value !== '') this.scan.found.categories.push(value);
    });
  }
}
