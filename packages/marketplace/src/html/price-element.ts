import type { StartTag } from 'parse5-sax-parser';
import type { ElementStack } from './element-stack.ts';
import { attr, hasClass } from './tags.ts';
import type { TextCaptures } from './text-captures.ts';

/** What one `span.a-price` widget says, before it is parsed as a price. */
export interface PriceElement {
  /** Struck-through (`data-a-strike="true"`): a list/was price. */
  strike: boolean;
  /** Small secondary price style, also used for unit prices and savings. */
  textPrice: boolean;
  /** Marked as the price to pay (`priceToPay`, `apexPriceToPay`). */
  toPay: boolean;
  /** Best text to parse: the screen-reader copy, else the visible parts put back together. */
  text: string;
}

interface Draft {
  strike: boolean;
  textPrice: boolean;
  toPay: boolean;
  offscreen: string | undefined;
  symbol: string;
  whole: string;
  decimal: string;
  fraction: string;
  symbolFirst: boolean | undefined;
  visible: string;
}

/**
 * Reads the `span.a-price` widget used across search and product pages:
 * `<span class="a-price"><span class="a-offscreen">$749.99</span><span aria-hidden="true">
 * <span class="a-price-symbol">$</span><span class="a-price-whole">749<span class="a-price-decimal">.
 * </span></span><span class="a-price-fraction">99</span></span></span>`. Some layouts omit the
 * offscreen copy, so the visible parts are kept too.
 */
export class PriceElementReader {
  private draft: Draft | undefined;
  private readonly stack: ElementStack;
  private readonly captures: TextCaptures;

  constructor(stack: ElementStack, captures: TextCaptures) {
    this.stack = stack;
    this.captures = captures;
  }

  get reading(): boolean {
    return this.draft !== undefined;
  }

  /**
   * Feed every start tag (after it was opened on the stack). Starts reading at a `span.a-price`
   * and calls `done` when that element closes. Returns true while the tag belongs to a widget.
   */
  startTag(tag: StartTag, cls: string | undefined, done: (price: PriceElement) => void): boolean {
    const draft = this.draft;
    if (draft === undefined) {
      if (tag.tagName !== 'span' || !hasClass(cls, 'a-price')) return false;
      const started: Draft = {
        strike: attr(tag, 'data-a-strike') === 'true',
        textPrice: hasClass(cls, 'a-text-price'),
        toPay: hasClass(cls, 'priceToPay') || hasClass(cls, 'apexPriceToPay'),
        offscreen: undefined,
        symbol: '',
        whole: '',
        decimal: '',
        fraction: '',
        symbolFirst: undefined,
        visible: '',
      };
      this.draft = started;
      this.stack.onClose(() => {
        this.draft = undefined;
        done({ strike: started.strike, textPrice: started.textPrice, toPay: started.toPay, text: compose(started) });
      });
      return true;
    }
    if (tag.tagName !== 'span') return true;
    if (hasClass(cls, 'a-offscreen')) {
      if (draft.offscreen === undefined) this.capture((text) => (draft.offscreen = text));
    } else if (hasClass(cls, 'a-price-symbol')) {
      draft.symbolFirst ??= draft.whole === '';
      this.capture((text) => (draft.symbol = text));
    } else if (hasClass(cls, 'a-price-whole')) {
      draft.symbolFirst ??= false;
      this.capture((text) => (draft.whole = text));
    } else if (hasClass(cls, 'a-price-decimal')) {
      this.capture((text) => (draft.decimal = text));
    } else if (hasClass(cls, 'a-price-fraction')) {
      this.capture((text) => (draft.fraction = text));
    } else if (attr(tag, 'aria-hidden') === 'true' && draft.visible === '') {
      this.capture((text) => (draft.visible = text));
    }
    return true;
  }

  private capture(set: (text: string) => void): void {
    const parts = this.captures.begin();
    // Only markup whitespace is collapsed: the no-break spaces inside `1 299,99 €` belong to the raw text.
    this.stack.onClose(() =>
      set(
        this.captures
          .end(parts)
          .replace(/[\t\n\r ]+/g, ' ')
          .trim(),
      ),
    );
  }
}

function compose(draft: Draft): string {
  if (draft.offscreen !== undefined && /\d/.test(draft.offscreen)) return draft.offscreen;
  if (draft.whole !== '') {
    const decimal = draft.decimal || '.';
    const whole = draft.whole.endsWith(decimal) ? draft.whole.slice(0, -decimal.length) : draft.whole;
    const number = draft.fraction === '' ? whole : `${whole}${decimal}${draft.fraction}`;
    return draft.symbolFirst ? `${draft.symbol}${number}` : `${number} ${draft.symbol}`.trim();
  }
  return draft.visible;
}
