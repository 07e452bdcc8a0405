import { SAXParser, type EndTag, type SaxToken, type StartTag, type Text } from 'parse5-sax-parser';
import { isSpecialElement, type ElementStack } from './element-stack.ts';
import { rawTextSegments } from './raw-text.ts';
import { findRegionStarts, type RegionAnchors } from './region-starts.ts';

export interface SaxHandler {
  startTag(tag: StartTag): void;
  endTag(tag: EndTag): void;
  text(text: string): void;
}

/**
 * SAXParser that hands tokens straight to one handler object instead of going through
 * EventEmitter, and can be fed synchronously (the stream API finishes on a later tick).
 */
class DirectSaxParser extends SAXParser {
  readonly handler: SaxHandler;

  constructor(handler: SaxHandler) {
    super();
    this.handler = handler;
  }

  protected override emitIfListenerExists(eventName: string, token: SaxToken): boolean {
    if (eventName === 'startTag') this.handler.startTag(token as StartTag);
    else if (eventName === 'endTag') this.handler.endTag(token as EndTag);
    else if (eventName === 'text') this.handler.text((token as Text).text);
    return true;
  }

  feed(chunk: string, last: boolean): void {
    this.tokenizer.write(chunk, last);
  }
}

/**
 * Tokenizes `html` with parse5's SAX parser and reports tags and text to `handler`, synchronously.
 * The bodies of <script> and <style> are cut out before tokenizing: they are most of a real page's
 * bytes and none of its data, and tokenizing them would cost as much as a full tree build.
 */
export function scanHtml(html: string, handler: SaxHandler): void {
  const parser = new DirectSaxParser(handler);
  const segments = rawTextSegments(html);
  for (let i = 0; i < segments.length; i++) {
    parser.feed(segments[i] as string, i === segments.length - 1);
  }
}

/**
 * Tokenizes one element at a time: from its start tag until it closes on `stack` (which the
 * handler keeps, and which is empty before and after). Stops early, too, at an end tag that
 * closes nothing inside the element but is a special element's (`</div>`, `</td>`): in the
 * whole document it would close an ancestor and with it this element.
 */
class ElementSaxParser extends DirectSaxParser {
  private readonly stack: ElementStack;

  constructor(handler: SaxHandler, stack: ElementStack) {
    super(handler);
    this.stack = stack;
  }

  protected override emitIfListenerExists(eventName: string, token: SaxToken): boolean {
    if (eventName === 'startTag') {
      this.handler.startTag(token as StartTag);
      if (this.stack.depth === 0) this.stop();
    } else if (eventName === 'endTag') {
      const depth = this.stack.depth;
      const name = (token as EndTag).tagName;
      this.handler.endTag(token as EndTag);
      if (this.stack.depth === 0 || (this.stack.depth === depth && isSpecialElement(name))) this.stop();
    } else if (eventName === 'text') {
      this.handler.text((token as Text).text);
    }
    return true;
  }

  /** Offset in the fed text of the character being read (past the tag that stopped the parser). */
  get offset(): number {
    return this.tokenizer.preprocessor.offset;
  }
}

/**
 * Like scanHtml, but tokenizes only the elements `anchors` select (each with everything inside
 * it), found by string search; the rest of the page is never tokenized. Handlers see the same tags
 * in the same order as in a whole-page scan, minus the ones outside every selected element, so
 * they must only react to tags inside such elements. `stack` must be the stack the handler opens
 * and closes elements on. Falls back to scanHtml when the page's raw text is ambiguous.
 */
export function scanRegions(html: string, anchors: RegionAnchors, handler: SaxHandler, stack: ElementStack): void {
  const starts = findRegionStarts(html, anchors);
  if (starts === undefined) {
    scanHtml(html, handler);
    return;
  }
  let covered = 0;
  for (const start of starts) {
    // An element inside one already tokenized was seen then.
    if (start < covered) continue;
    const parser = new ElementSaxParser(handler, stack);
    parser.feed(start === 0 ? html : html.slice(start), true);
    covered = start + parser.offset;
    stack.closeAll();
  }
}
