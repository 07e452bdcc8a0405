import type { StartTag } from 'parse5-sax-parser';
import { ElementStack } from '../html/element-stack.ts';
import { normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { newFindings, type Findings } from './findings.ts';

/** A region's depth: nested containers of one kind count once each, so a region ends with its outermost element. */
export interface Depth {
  depth: number;
}

/** A region handler that starts on elements with one of its `ids`. */
export interface IdRegion {
  readonly ids: readonly string[];
  onId(id: string, tag: StartTag): void;
}

/** What the region handlers of one pass share: the open elements, the text being captured and the findings. */
export class PageScan {
  readonly stack = new ElementStack();
  readonly captures = new TextCaptures();
  readonly found: Findings = newFindings();
  /** Captures that also take the unparsed content of the `<noscript>` elements inside them. */
  readonly #noscript: string[][] = [];

  /** Collects the text of the element opened last and hands it to `set` when that element closes. */
  capture(set: (text: string) => void): void {
    const parts = this.captures.begin();
    this.stack.onClose(() => set(this.captures.end(parts)));
  }

  /**
   * Like `capture`, and also hands over the raw content of the `<noscript>` elements inside: what
   * a reader without scripts sees there, where the page puts its text nowhere else (older book
   * descriptions are drawn into an iframe by script, their only copy in markup is a noscript).
   */
  captureWithNoscript(set: (text: string, noscript: string) => void): void {
    const parts = this.captures.begin();
    const raw: string[] = [];
    this.#noscript.push(raw);
    this.stack.onClose(() => {
      this.#noscript.splice(this.#noscript.indexOf(raw), 1);
      set(this.captures.end(parts), raw.join(''));
    });
  }

  /** Text the tokenizer found: page text, or a hidden element's content (a noscript's, for those asking). */
  text(text: string): void {
    if (!this.stack.hidden) this.captures.text(text);
    else if (this.#noscript.length > 0 && this.stack.current === 'noscript') for (const raw of this.#noscript) raw.push(text);
  }

  /** Counts the element opened last as part of `region` until it closes. */
  enter(region: Depth): void {
    region.depth++;
    this.stack.onClose(() => region.depth--);
  }
}

/**
 * A region that an element with one of `ids` opens and that lasts until that element closes
 * (nested ones count once each); a subclass reads the tags inside it.
 */
export class ContainerRegion implements IdRegion, Depth {
  depth = 0;
  readonly ids: readonly string[];
  protected readonly scan: PageScan;

  constructor(scan: PageScan, ids: readonly string[]) {
    this.scan = scan;
    this.ids = ids;
  }

  onId(_id?: string): void {
    this.scan.enter(this);
  }
}

/** Multi-line text (descriptions, ranks) with each line's spacing normalized and empty lines dropped. */
export function lines(text: string): string {
  return text
    .split('\n')
    .map(normalizeSpace)
    .filter((line) => line !== '')
    .join('\n');
}
