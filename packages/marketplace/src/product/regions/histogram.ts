import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

// The row link's filter names its star count in every language (`filterByStar=four_star`).
const STAR_FILTER = /filterByStar=(five|four|three|two|one)_star/;
const STAR_WORDS: Record<string, number> = { five: 5, four: 4, three: 3, two: 2, one: 1 };
// Its label pairs the share with the star count: `15 percent of reviews have 4 stars`,
// `15 Prozent der Bewertungen haben 4 Sterne`, `星4つ 15%`. The count is the digit by a star word.
const LABEL_STARS = /(?:^|\D)([1-5])\s*(?:stars?|sterne?n?|étoiles?|estrellas?|estrelas?|stelle|sterren|stjärnor|gwiazd\w*|yıldız)|(?:星|★)\s*([1-5])(?!\d)/i;
const LABEL_PERCENT = /(\d{1,3})\s*(?:%|percent|prozent|pour\s*cent|por\s*ciento|por\s*cento|per\s*cento|procent)/i;

/**
 * The star histogram (`#histogramTable`, a list or a table): one row per star count. The stars come
 * from the row link's `5star` class or its star filter, else its label, else the row's first
 * number; the share from the meter's `aria-valuenow`, else the label's percentage, else the row's
 * last percentage (`68%`, `68 %`). The newer list repeats every star's name in each row's text, so
 * the text is the last resort.
 */
/** The histogram of pages before 2014: a hover popover's table, `td[title="67%"]` drawing each share. */
export const LEGACY_HISTOGRAM_ID = /^contentDiv_reviewHistoPop_/;

interface HistogramRow {
  frame?: boolean;
  stars?: number | undefined;
  percent?: number | undefined;
  labelPercent?: number;
  text: string;
}

export class HistogramRegion extends ContainerRegion {
  private row: HistogramRow | undefined;

  constructor(scan: PageScan) {
    super(scan, ['histogramTable']);
  }

  startTag(tag: StartTag, name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    if (name === 'li' || name === 'tr') {
      // A row inside a row: the outer one only lays the table out (the popover's frame), it is no row.
      if (this.row !== undefined) this.row.frame = true;
      const started: HistogramRow = { text: '' };
      this.row = started;
      this.scan.capture((text) => {
        this.row = undefined;
        if (started.frame) return;
        started.text = normalizeSpace(text);
        if (started.percent === undefined && started.labelPercent !== undefined) started.percent = started.labelPercent;
        if (started.text !== '' || started.percent !== undefined)
          this.scan.found.histogram.push({ stars: started.stars, percent: started.percent, text: started.text });
      });
      return;
    }
    const row = this.row;
    if (row === undefined) return;
    const stars = cls === undefined ? undefined : /(?:^|\s)([1-5])star(?:\s|$)/.exec(cls)?.[1];
    if (stars !== undefined) row.stars ??= Number(stars);
    if (name === 'a') {
      const filter = STAR_FILTER.exec(attr(tag, 'href') ?? '')?.[1];
      if (filter !== undefined) row.stars ??= STAR_WORDS[filter];
      const label = attr(tag, 'aria-label');
      if (label !== undefined) {
        const labelled = LABEL_STARS.exec(label);
        const count = labelled?.[1] ?? labelled?.[2];
        if (count !== undefined) row.stars ??= Number(count);
        const share = LABEL_PERCENT.exec(label)?.[1];
        if (share !== undefined && count !== undefined) row.labelPercent ??= Number(share);
      }
    }
    if (name === 'td') {
      const share = /^(\d{1,3})%$/.exec(attr(tag, 'title') ?? '')?.[1];
      if (share !== undefined) row.percent ??= Number(share);
    }
    if (hasClass(cls, 'a-meter') || attr(tag, 'role') === 'progressbar') {
      const now = attr(tag, 'aria-valuenow');
      const value = now === undefined ? Number.NaN : Number.parseFloat(now);
      if (Number.isFinite(value)) row.percent ??= value;
    }
  }
}
