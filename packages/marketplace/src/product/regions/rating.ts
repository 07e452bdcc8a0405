import type { StartTag } from 'parse5-sax-parser';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

const RATING_REGIONS: ReadonlySet<string> = new Set(['acrPopover', 'averageCustomerReviews', 'averageCustomerReviews_feature_div', 'acrCustomerReviewLink']);

/** The star rating (the popover's title, else the icon's alt text) and the review count text. */
export class RatingRegion implements IdRegion {
  readonly ids: readonly string[] = [...RATING_REGIONS, 'acrCustomerReviewText'];
  depth = 0;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string, tag: StartTag): void {
    const found = this.scan.found;
    if (RATING_REGIONS.has(id)) {
      this.scan.enter(this);
      if (id === 'acrPopover') found.ratingTitle ??= attr(tag, 'title');
    } else if (id === 'acrCustomerReviewText') {
      this.scan.capture((text) => (found.reviewText ??= normalizeSpace(text)));
    }
  }

  spanTag(tag: StartTag, cls: string | undefined): void {
    const found = this.scan.found;
    // Pages before 2014: the stars are a sprite whose title is the rating, in `span.crAvgStars`.
    if (hasClass(cls, 'crAvgStars')) this.scan.enter(this);
    if (this.depth === 0) return;
    if (hasClass(cls, 'a-icon-alt') && found.ratingText === undefined) {
      this.scan.capture((text) => (found.ratingText ??= normalizeSpace(text)));
    } else if (hasClass(cls, 'swSprite')) {
      found.ratingTitle ??= attr(tag, 'title');
    }
  }

  /** Pages before 2014: the review count is the text of the link to the reviews (`1,050 customer reviews`). */
  linkTag(tag: StartTag): void {
    const found = this.scan.found;
    if (found.reviewText !== undefined || !(attr(tag, 'href') ?? '').includes('cm_cr_acr_txt')) return;
    this.scan.capture((text) => (found.reviewText ??= normalizeSpace(text) || undefined));
  }
}
