import { ElementStack } from './element-stack.ts';
import { scanHtml } from './sax-scanner.ts';

/** Starts of these elements separate lines of text; multi-line values (description, ranks) need it. */
export const LINE_BREAKS: ReadonlySet<string> = new Set(['br', 'p', 'li', 'td', 'tr', 'div', 'ul']);

/**
 * The text a reader sees in a piece of markup given as text (a `<noscript>`'s content, which the
 * tokenizer hands over unparsed): its elements' text with line breaks, never script or style.
 */
export function textOfMarkup(markup: string): string {
  const stack = new ElementStack();
  const parts: string[] = [];
  scanHtml(markup, {
    startTag(tag) {
      stack.open(tag.tagName);
      if (!stack.hidden && LINE_BREAKS.has(tag.tagName)) parts.push('\n');
    },
    endTag(tag) {
      stack.close(tag.tagName);
    },
    text(text) {
      if (!stack.hidden) parts.push(text);
    },
  });
  return parts.join('');
}
