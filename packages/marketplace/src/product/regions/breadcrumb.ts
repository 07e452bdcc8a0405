import { normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

const BREADCRUMB_REGIONS: readonly string[] = ['wayfinding-breadcrumbs_feature_div', 'wayfinding-breadcrumbs_container'];

/** The category path: each link of the breadcrumb, top category first. */
export class BreadcrumbRegion extends ContainerRegion {
  constructor(scan: PageScan) {
    super(scan, BREADCRUMB_REGIONS);
  }

  startTag(name: string): void {
    if (this.depth === 0 || name !== 'a') return;
    this.scan.capture((text) => {
      const value = normalizeSpace(text);
      if (value !== '') this.scan.found.categories.push(value);
    });
  }
}
