import type { StartTag } from 'parse5-sax-parser';
import { selectionLabel } from '../../fields/interface-phrases.ts';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import { ASIN } from '../findings.ts';
import type { PageScan } from '../page-scan.ts';
import type { ProductVariation } from '../types.ts';

export const TWISTER_ID =
  /^(?:twister|twister_feature_div|twister-plus-inline-twister|inline-twister-expander-content-.+|tp-inline-twister-dim-values-container)$/;
const TWISTER_DIMENSION_ID = /^(?:variation_|inline-twister-row-)(.+)$/;

/**
 * The variation picker ("twister"): each element carrying a variation's ASIN is one variation of
 * the dimension (`size_name`, `color_name`) whose row it is in; its label comes from the title,
 * else a swatch text, else an image's alt text, else its own text.
 */
export class TwisterRegion {
  depth = 0;
  private dimension: string | undefined;
  private variation: ProductVariation | undefined;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    if (!TWISTER_ID.test(id)) return;
    this.scan.enter(this);
  }

  /** Every id inside the picker: a dimension's row names the dimension until it closes. */
  anyId(id: string): void {
    if (this.depth === 0) return;
    const dim = TWISTER_DIMENSION_ID.exec(id)?.[1];
    if (dim === undefined) return;
    const previous = this.dimension;
    this.dimension = dim;
    this.scan.stack.onClose(() => (this.dimension = previous));
  }

  startTag(tag: StartTag, cls: string | undefined): void {
    if (this.depth === 0) return;
    const asin = swatchAsin(tag);
    if (this.variation === undefined && asin !== undefined) {
      const title = attr(tag, 'title');
      const label = title === undefined ? undefined : selectionLabel(title);
      const started: ProductVariation = {
        asin,
        selected: hasClass(cls, 'swatchSelect') || attr(tag, 'data-initiallyselected') === 'true',
      };
      if (this.dimension !== undefined) started.dimension = this.dimension;
      if (label) started.label = label;
      this.variation = started;
      this.scan.capture((text) => {
        this.variation = undefined;
        const shown = normalizeSpace(text);
        if (started.label === undefined && shown !== '') started.label = shown;
        this.scan.found.variations.push(started);
      });
      return;
    }
    const current = this.variation;
    if (current === undefined) return;
    if (hasClass(cls, 'a-button-selected') || hasClass(cls, 'swatchSelect')) current.selected = true;
    if (current.label === undefined && (hasClass(cls, 'swatch-title-text-display') || hasClass(cls, 'twisterTextDiv'))) {
      this.scan.capture((text) => {
        const shown = normalizeSpace(text);
        if (current.label === undefined && shown !== '') current.label = shown;
      });
    }
  }

  imgTag(tag: StartTag): void {
    const current = this.variation;
    if (current === undefined || current.label !== undefined) return;
    const alt = attr(tag, 'alt');
    if (alt) current.label = alt;
  }
}

/**
 * The ASIN a swatch stands for: its `data-defaultasin` (or `data-asin`), else, on a swatch not
 * available in the chosen combination (an empty `data-defaultasin`), the product its link opens.
 */
function swatchAsin(tag: StartTag): string | undefined {
  const own = attr(tag, 'data-defaultasin') ?? attr(tag, 'data-asin');
  if (own !== undefined && ASIN.test(own)) return own;
  const linked = /\/dp\/([A-Z0-9]{10})(?:[/?#]|$)/.exec(attr(tag, 'data-dp-url') ?? '')?.[1];
  return linked !== undefined && ASIN.test(linked) ? linked : undefined;
}
