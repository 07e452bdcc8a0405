import type { StartTag } from 'parse5-sax-parser';
import { attr, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

const BREADCRUMB_REGIONS: readonly string[] = ['wayfinding-breadcrumbs_feature_div', 'wayfinding-breadcrumbs_container'];
// Some pages put a "‹ Back to results" link in the breadcrumb row: it leads to a search, not a category.
const SEARCH_HREF = /^(?:https?:\/\/[^/]+)?\/(?:s(?:[/?]|$)|gp\/search)/;
const BACK_TEXT = /^‹?\s*(?:back to|zurück zu|retour aux|volver a|torna ai|terug naar|tillbaka till|powrót do|検索結果に戻る)/i;

/** The category path: each link of the breadcrumb, top category first, with its browse node. */
export class BreadcrumbRegion extends ContainerRegion {
  constructor(scan: PageScan) {
    super(scan, BREADCRUMB_REGIONS);
  }

  startTag(tag: StartTag, name: string): void {
    if (this.depth === 0 || name !== 'a') return;
    const href = attr(tag, 'href') ?? '';
    const id = attr(tag, 'id');
    if (SEARCH_HREF.test(href) || id?.includes('back')) return;
    this.scan.capture((text) => {
      const value = normalizeSpace(text);
      if (value === '' || BACK_TEXT.test(value)) return;
      this.scan.found.categories.push(value);
      const step: { name: string; nodeId?: string; url?: string } = { name: value };
      const node = /[?&]node=(\d+)/.exec(href)?.[1];
      if (node !== undefined) step.nodeId = node;
      if (href !== '' && !href.startsWith('javascript:')) step.url = href;
      this.scan.found.breadcrumbs.push(step);
    });
  }
}
