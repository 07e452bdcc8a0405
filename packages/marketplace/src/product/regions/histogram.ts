import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

/**
 * The star histogram (`#histogramTable`, a list or a table): one row per star count. The stars come
 * from the row link's `5star` class, else the row's first number; the share from the meter's
 * `aria-valuenow`, else the row's last percentage (`68%`, `68 %`).
 */
export class HistogramRegion extends ContainerRegion {
  private row: { stars?: number; percent?: number; text: string } | undefined;

  constructor(scan: PageScan) {
    super(scan, ['histogramTable']);
  }

  startTag(tag: StartTag, name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    if ((name === 'li' || name === 'tr') && this.row === undefined) {
      const started: { stars?: number; percent?: number; text: string } = { text: '' };
      this.row = started;
      this.scan.capture((text) => {
        this.row = undefined;
        started.text = normalizeSpace(text);
        if (started.text !== '' || started.percent !== undefined) this.scan.found.histogram.push(started);
      });
      return;
    }
    const row = this.row;
    if (row === undefined) return;
    const stars = cls === undefined ? undefined : /(?:^|\s)([1-5])star(?:\s|$)/.exec(cls)?.[1];
    if (stars !== undefined) row.stars ??= Number(stars);
    if (hasClass(cls, 'a-meter') || attr(tag, 'role') === 'progressbar') {
      const now = attr(tag, 'aria-valuenow');
      const value = now === undefined ? Number.NaN : Number.parseFloat(now);
      if (Number.isFinite(value)) row.percent ??= value;
    }
  }
}
