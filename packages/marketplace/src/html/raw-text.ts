// ASCII whitespace only, not `\s` (which takes in U+00A0 and others): the same on a page's text and on
// its UTF-8 bytes read as latin1 (see page-text.ts).
const OPENER = /<(script|style)(?=[\t\n\v\f\r />])|<!--/gi;
const CLOSERS = new Map<string, RegExp>();

/** The end tag of a raw-text element (`script`, `style` …), to search from its body's start (global: set `lastIndex`). */
export function endTagOf(name: string): RegExp {
  const lower = name.toLowerCase();
  let closer = CLOSERS.get(lower);
  if (!closer) CLOSERS.set(lower, (closer = new RegExp(`</${lower}[\\t\\n\\v\\f\\r />]`, 'gi')));
  return closer;
}

/**
 * The first `<!--` at or after a position, for positions that only grow (one script body after
 * another): a page without comments after some point is searched to its end once, not once per script.
 */
export function commentSearch(html: string): (from: number) => number {
  let at = -1;
  return (from) => {
    if (at !== Number.POSITIVE_INFINITY && at < from) {
      const found = html.indexOf('<!--', from);
      at = found === -1 ? Number.POSITIVE_INFINITY : found;
    }
    return at;
  };
}

/**
 * Splits `html` into the pieces that remain once every <script>/<style> body is removed; the tags
 * themselves stay so the tokenizer still sees the elements open and close. Comments are stepped
 * over so a commented-out `<script` is not mistaken for one. A script body holding `<!--` could put
 * the tokenizer in its escaped states, where `</script>` does not end the element; from such a
 * script on, the rest of the document is passed through untouched so parse5 decides.
 */
export function rawTextSegments(html: string): string[] {
  const segments: string[] = [];
  const opener = new RegExp(OPENER);
  let kept = 0;
  const nextComment = commentSearch(html);
  let match: RegExpExecArray | null;
  while ((match = opener.exec(html)) !== null) {
    const name = match[1];
    if (name === undefined) {
      // `<!-->` and `<!--->` are complete comments too, hence searching from two chars in.
      const end = html.indexOf('-->', match.index + 2);
      if (end === -1) break;
      opener.lastIndex = end + 3;
      continue;
    }
    const bodyStart = startTagEnd(html, match.index + 1 + name.length);
    if (bodyStart === -1) break;
    const closer = endTagOf(name);
    closer.lastIndex = bodyStart;
    const close = closer.exec(html);
    if (close === null) break;
    if (nextComment(bodyStart) < close.index) break;
    segments.push(html.slice(kept, bodyStart));
    kept = close.index;
    opener.lastIndex = close.index + 2;
  }
  segments.push(html.slice(kept));
  return segments;
}

/** Index just past the `>` closing the start tag whose attributes begin at `from`, quote-aware. */
export function startTagEnd(html: string, from: number): number {
  let quote = 0;
  for (let i = from; i < html.length; i++) {
    const code = html.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 0x3e /* > */) {
      return i + 1;
    } else if ((code === 0x22 || code === 0x27) && html.charCodeAt(i - 1) === 0x3d /* = */) {
      quote = code;
    }
  }
  return -1;
}
