import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import { cleanLabel } from '../info-rows.ts';
import { ContainerRegion, lines, type Depth, type PageScan } from '../page-scan.ts';

const INFO_REGIONS: readonly string[] = [
  'detailBulletsWrapper_feature_div',
  'detailBullets_feature_div',
  'productDetails_detailBullets_sections1',
  'productDetails_db_sections',
  'prodDetails',
];
/** Technical details and the product overview table: rows that are specifications. */
const SPEC_REGIONS: readonly string[] = [
  'productDetails_techSpec_section_1',
  'productDetails_techSpec_section_2',
  'tech-specs-mobile',
  'productOverview_feature_div',
];

interface Row {
  parts: string[];
  label: string | undefined;
  links: { text: string; href: string }[];
}

/**
 * "Product information" rows, as bullets (`li` with a bold label) or tables (`tr` with a `th`, or
 * the overview's bold first cell): the label's text, the row's text after it as the value, and the
 * row's links (the best-sellers lists).
 */
export class InfoRowsRegion extends ContainerRegion {
  private row: Row | undefined;
  private readonly spec: Depth = { depth: 0 };
  private readonly overview: Depth = { depth: 0 };

  constructor(scan: PageScan) {
    super(scan, [...INFO_REGIONS, ...SPEC_REGIONS]);
  }

  override onId(id: string): void {
    super.onId();
    if (id === 'productOverview_feature_div') this.scan.enter(this.overview);
    else if (SPEC_REGIONS.includes(id)) this.scan.enter(this.spec);
  }

  startTag(tag: StartTag, name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    const { stack, captures, found } = this.scan;
    if (this.row === undefined && (name === 'li' || name === 'tr')) {
      const started: Row = { parts: captures.begin(), label: undefined, links: [] };
      const section = this.overview.depth > 0 ? 'overview' : this.spec.depth > 0 ? 'spec' : 'details';
      this.row = started;
      stack.onClose(() => {
        this.row = undefined;
        const text = captures.end(started.parts);
        const label = started.label === undefined ? undefined : cleanLabel(normalizeSpace(started.label));
        if (label === undefined || label === '') return;
        const at = text.indexOf(started.label as string);
        const value = at === -1 ? text : text.slice(at + (started.label as string).length);
        found.infoRows.push({ label, value: lines(value.replace(/^[\s\u200e\u200f:：]+/, '')), section, links: started.links });
      });
      return;
    }
    const current = this.row;
    if (current === undefined) return;
    if (current.label === undefined && (name === 'th' || (name === 'span' && hasClass(cls, 'a-text-bold')))) {
      current.label = '';
      this.scan.capture((text) => (current.label = text));
    } else if (name === 'a') {
      const href = attr(tag, 'href');
      if (href !== undefined) this.scan.capture((text) => current.links.push({ text: normalizeSpace(text), href }));
    }
  }
}
