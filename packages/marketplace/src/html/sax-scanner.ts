import { SAXParser, type EndTag, type SaxToken, type StartTag, type Text } from 'parse5-sax-parser';
import { isSpecialElement, type ElementStack } from './element-stack.ts';
import { type PageText, pageText, textToUtf8Bytes, utf8BytesToText } from './page-text.ts';
import { rawTextSegments } from './raw-text.ts';
import { findRegionStarts, type RegionAnchors } from './region-starts.ts';

export interface SaxHandler {
  startTag(tag: StartTag): void;
  endTag(tag: EndTag): void;
  text(text: string): void;
}

interface RunExtender {
  _extendRunWith(text: string, cpOffset: number): void;
}

/**
 * SAXParser that hands tokens straight to one handler object instead of going through
 * EventEmitter, and can be fed synchronously (the stream API finishes on a later tick). Fed a page
 * read as UTF-8 bytes (`utf8Bytes`), it decodes character references into UTF-8 bytes too and
 * hands the handler text and attribute values as Unicode.
 */
class DirectSaxParser extends SAXParser {
  readonly handler: SaxHandler;
  protected readonly utf8Bytes: boolean;

  constructor(handler: SaxHandler, utf8Bytes: boolean) {
    super();
    this.handler = handler;
    this.utf8Bytes = utf8Bytes;
    // parse5 8's tokenizer adds what differs from its input (a decoded reference, U+FFFD for a NUL)
    // through this one method; among bytes that text must be bytes as well (test/page-bytes.test.ts
    // pins it). Set on every tokenizer, so all have one shape.
    const tokenizer = this.tokenizer as unknown as RunExtender;
    const extend = tokenizer._extendRunWith;
    if (utf8Bytes && typeof extend !== 'function') throw new Error('parse5 tokenizer without _extendRunWith: pages cannot be read as UTF-8 bytes');
    tokenizer._extendRunWith = utf8Bytes
      ? function (this: RunExtender, text: string, cpOffset: number) {
          extend.call(this, textToUtf8Bytes(text), cpOffset);
        }
      : extend;
  }

  protected override emitIfListenerExists(eventName: string, token: SaxToken): boolean {
    if (eventName === 'startTag') this.handler.startTag(this.startTag(token as StartTag));
    else if (eventName === 'endTag') this.handler.endTag(token as EndTag);
    else if (eventName === 'text') this.handler.text(this.text(token as Text));
    return true;
  }

  /** The tag with its attribute values as Unicode. */
  protected startTag(tag: StartTag): StartTag {
    if (this.utf8Bytes) {
      const attrs = tag.attrs;
      for (let i = 0; i < attrs.length; i++) {
        const a = attrs[i] as { value: string };
        a.value = utf8BytesToText(a.value);
      }
    }
    return tag;
  }

  protected text(token: Text): string {
    return this.utf8Bytes ? utf8BytesToText(token.text) : token.text;
  }

  feed(chunk: string, last: boolean): void {
    this.tokenizer.write(chunk, last);
  }
}

/**
 * Tokenizes the page with parse5's SAX parser and reports tags and text to `handler`, synchronously.
 * The bodies of <script> and <style> are cut out before tokenizing: they are most of a real page's
 * bytes and none of its data, and tokenizing them would cost as much as a full tree build.
 */
export function scanHtml(page: string | PageText, handler: SaxHandler): void {
  const { text: html, utf8Bytes } = pageText(page);
  const parser = new DirectSaxParser(handler, utf8Bytes);
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

  constructor(handler: SaxHandler, stack: ElementStack, utf8Bytes: boolean) {
    super(handler, utf8Bytes);
    this.stack = stack;
  }

  protected override emitIfListenerExists(eventName: string, token: SaxToken): boolean {
    if (eventName === 'startTag') {
      this.handler.startTag(this.startTag(token as StartTag));
      if (this.stack.depth === 0) this.stop();
    } else if (eventName === 'endTag') {
      const depth = this.stack.depth;
      const name = (token as EndTag).tagName;
      this.handler.endTag(token as EndTag);
      if (this.stack.depth === 0 || (this.stack.depth === depth && isSpecialElement(name))) this.stop();
    } else if (eventName === 'text') {
      this.handler.text(this.text(token as Text));
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
export function scanRegions(page: PageText, anchors: RegionAnchors, handler: SaxHandler, stack: ElementStack): void {
  const { text: html, utf8Bytes } = page;
  const starts = findRegionStarts(page, anchors);
  if (starts === undefined) {
    scanHtml(page, handler);
    return;
  }
  let covered = 0;
  for (const start of starts) {
    // An element inside one already tokenized was seen then.
    if (start < covered) continue;
    const parser = new ElementSaxParser(handler, stack, utf8Bytes);
    parser.feed(start === 0 ? html : html.slice(start), true);
    covered = start + parser.offset;
    stack.closeAll();
  }
}
