import { hasClass, normalizeSpace } from '../../html/tags.ts';
import { cleanLabel } from '../info-rows.ts';
import { ContainerRegion, lines, type PageScan } from '../page-scan.ts';

const INFO_REGIONS: readonly string[] = [
  'detailBulletsWrapper_feature_div',
  'detailBullets_feature_div',
  'productDetails_detailBullets_sections1',
  'productDetails_techSpec_section_1',
  'productDetails_db_sections',
  'prodDetails',
  'tech-specs-mobile',
];

/**
 * "Product information" rows, as bullets (`li` with a bold label) or tables (`tr` with a `th`):
 * the label's text, and the row's text after it as the value.
 */
export class InfoRowsRegion extends ContainerRegion {
  private row: { parts: string[]; label: string | undefined } | undefined;

  constructor(scan: PageScan) {
    super(scan, INFO_REGIONS);
  }

  startTag(name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    const { stack, captures, found } = this.scan;
    if (this.row === undefined && (name === 'li' || name === 'tr')) {
      const started: { parts: string[]; label: string | undefined } = { parts: captures.begin(), label: undefined };
      this.row = started;
      stack.onClose(() => {
        this.row = undefined;
        const text = captures.end(started.parts);
        const label = started.label === undefined ? undefined : cleanLabel(normalizeSpace(started.label));
        if (label === undefined || label === '') return;
        const at = text.indexOf(started.label as string);
        const value = at === -1 ? text : text.slice(at + (started.label as string).length);
        found.infoRows.push({ label, value: lines(value.replace(/^[\s\u200e\u200f:：]+/, '')) });
      });
      return;
    }
    const current = this.row;
    if (current !== undefined && current.label === undefined && (name === 'th' || (name === 'span' && hasClass(cls, 'a-text-bold')))) {
      current.label = '';
      this.scan.capture((text) => (current.label = text));
    }
  }
}
