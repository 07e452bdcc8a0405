import { SAXParser, type EndTag, type SaxToken, type StartTag, type Text } from 'parse5-sax-parser';
import { rawTextSegments } from './raw-text.ts';

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
