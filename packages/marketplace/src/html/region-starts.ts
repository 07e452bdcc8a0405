import { type PageText, pageText, utf8BytesToText } from './page-text.ts';
import { commentSearch, endTagOf, startTagEnd } from './raw-text.ts';

/** What makes an element worth tokenizing: its id, or a substring of its start tag. */
export interface RegionAnchors {
  /** Element ids that start a region. */
  ids: ReadonlySet<string>;
  /** Id patterns that start a region (for ids with a variable part). */
  idPattern?: RegExp;
  /**
   * Substrings of a start tag (class names, attribute names) that make the element a region;
   * `accept`, when given, then looks at the whole start tag's source. None holds `<` or `>`, so an
   * occurrence lies wholly inside or wholly outside a script, style or comment body.
   */
  needles: readonly { text: string; accept?: (startTag: string) => boolean }[];
}

// ASCII whitespace only, not `\s` (which takes in U+00A0 and others): the same on a page's text and on
// its UTF-8 bytes read as latin1 (see page-text.ts).
// Elements whose content the tokenizer reads as text: an anchor inside one is no element. Comments too.
const OPAQUE_OPENER = /<(script|style|noscript|textarea|title|iframe|xmp|noembed|noframes)(?=[\t\n\v\f\r />])|<!--/gi;
// A start tag's name and complete attributes (each after whitespace, so a name is never split).
const START_TAG_ATTRIBUTES =
  /<[a-zA-Z][^\t\n\v\f\r />]*(?:[\t\n\v\f\r ]+[^\t\n\v\f\r "'>/=]+(?:[\t\n\v\f\r ]*=[\t\n\v\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\v\f\r "'=<>`]+))?)*/y;

/**
 * Offsets (ascending) of the start tags of the elements `anchors` select, found with string
 * searches instead of tokenizing: only these elements then need the tokenizer. Occurrences inside
 * script, style, comments and other raw-text elements are left out, as the tokenizer would. Returns
 * undefined when the page's raw text cannot be delimited this simply (a script body that opens an
 * HTML comment and then a `<script`, where `</script>` no longer ends it): the caller then scans
 * the whole page.
 */
export function findRegionStarts(page: string | PageText, anchors: RegionAnchors): number[] | undefined {
  const { text: html, utf8Bytes } = pageText(page);
  const opaque = opaqueRanges(html);
  if (opaque === undefined) return undefined;
  const occurrences = anchorSearch(html, opaque);
  const starts = new Set<number>();
  const consider = (at: number, accept?: (startTag: string) => boolean): void => {
    const open = html.lastIndexOf('<', at);
    if (open === -1 || starts.has(open)) return;
    // The anchor must lie within the attributes of the tag that the nearest `<` starts.
    START_TAG_ATTRIBUTES.lastIndex = open;
    if (!START_TAG_ATTRIBUTES.test(html) || START_TAG_ATTRIBUTES.lastIndex <= at) return;
    if (accept !== undefined) {
      const end = startTagEnd(html, open + 1);
      if (end === -1) return;
      const startTag = html.slice(open, end);
      if (!accept(utf8Bytes ? utf8BytesToText(startTag) : startTag)) return;
    }
    starts.add(open);
  };

  for (const at of occurrences('id=')) {
    if (at === 0) continue;
    const before = html.charCodeAt(at - 1);
    if (before !== 0x20 && before !== 0x0a && before !== 0x09 && before !== 0x0d) continue;
    const id = attributeValue(html, at + 3);
    if (anchors.ids.has(id) || anchors.idPattern?.test(utf8Bytes ? utf8BytesToText(id) : id)) consider(at);
  }
  for (const needle of anchors.needles) {
    for (const at of occurrences(needle.text)) consider(at, needle.accept);
  }
  return [...starts].sort((a, b) => a - b);
}

/**
 * The search for an anchor's occurrences outside the opaque ranges (page offsets, ascending, without
 * overlaps). Where the ranges are most of the page (script and style bodies are four fifths of a
 * scripted product page) the rest is copied into one string and searched there, once per anchor;
 * otherwise copying would cost more than it saves (a megabyte copied takes about as long as a
 * search through it), and the page itself is searched with the ranges' occurrences left out.
 */
function anchorSearch(html: string, opaque: readonly number[]): (needle: string) => number[] {
  let opaqueLength = 0;
  for (let i = 0; i < opaque.length; i += 2) opaqueLength += (opaque[i + 1] as number) - (opaque[i] as number);
  if (2 * opaqueLength >= html.length) {
    const markup = new Markup(html, opaque);
    return (needle) => markup.occurrences(needle);
  }
  return (needle) => {
    const found: number[] = [];
    for (let at = html.indexOf(needle); at !== -1; at = html.indexOf(needle, at + needle.length)) {
      if (!insideRange(opaque, at)) found.push(at);
    }
    return found;
  };
}

/** The page outside its opaque ranges, as one string. */
class Markup {
  readonly #text: string;
  /** Per piece: where it starts in #text and in the page, and how long it is. */
  readonly #starts: number[] = [];
  readonly #pageStarts: number[] = [];
  readonly #lengths: number[] = [];

  constructor(html: string, opaque: readonly number[]) {
    const pieces: string[] = [];
    let length = 0;
    const add = (from: number, to: number) => {
      if (to <= from) return;
      this.#starts.push(length);
      this.#pageStarts.push(from);
      this.#lengths.push(to - from);
      pieces.push(html.slice(from, to));
      length += to - from;
    };
    let from = 0;
    for (let i = 0; i < opaque.length; i += 2) {
      add(from, opaque[i] as number);
      from = opaque[i + 1] as number;
    }
    add(from, html.length);
    this.#text = pieces.join('');
  }

  /**
   * Page offsets, ascending, of the occurrences of `needle` outside the opaque ranges (searched
   * without overlaps, as the page itself would be). One that would straddle a range is none: it
   * only exists once the range is cut out.
   */
  occurrences(needle: string): number[] {
    const found: number[] = [];
    let piece = 0;
    for (let at = this.#text.indexOf(needle); at !== -1; at = this.#text.indexOf(needle, at + needle.length)) {
      while ((this.#starts[piece] as number) + (this.#lengths[piece] as number) <= at) piece++;
      const offset = at - (this.#starts[piece] as number);
      if (offset + needle.length <= (this.#lengths[piece] as number)) found.push((this.#pageStarts[piece] as number) + offset);
    }
    return found;
  }
}

/** The value of the attribute whose `=` ends just before `from`: quoted or not. */
function attributeValue(html: string, from: number): string {
  const quote = html.charCodeAt(from);
  if (quote === 0x22 || quote === 0x27) {
    const end = html.indexOf(quote === 0x22 ? '"' : "'", from + 1);
    return end === -1 ? '' : html.slice(from + 1, end);
  }
  let end = from;
  while (end < html.length) {
    const code = html.charCodeAt(end);
    if (code <= 0x20 || code === 0x3e /* > */) break;
    end++;
  }
  return html.slice(from, end);
}

/** [start, end) pairs, ascending, of script/style/… bodies and comments; undefined when unsure. */
function opaqueRanges(html: string): number[] | undefined {
  const ranges: number[] = [];
  const opener = new RegExp(OPAQUE_OPENER);
  const nextComment = commentSearch(html);
  let match: RegExpExecArray | null;
  while ((match = opener.exec(html)) !== null) {
    const name = match[1];
    if (name === undefined) {
      const end = html.indexOf('-->', match.index + 2);
      const stop = end === -1 ? html.length : end + 3;
      ranges.push(match.index, stop);
      opener.lastIndex = stop;
      continue;
    }
    const bodyStart = startTagEnd(html, match.index + 1 + name.length);
    if (bodyStart === -1) return undefined;
    const closer = endTagOf(name);
    closer.lastIndex = bodyStart;
    const close = closer.exec(html);
    const stop = close === null ? html.length : close.index;
    if (name.toLowerCase() === 'script') {
      const comment = nextComment(bodyStart);
      if (comment < stop && /<script/i.test(html.slice(comment, stop))) return undefined;
    }
    ranges.push(bodyStart, stop);
    opener.lastIndex = stop + 2;
  }
  return ranges;
}

function insideRange(ranges: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < (ranges[mid * 2] as number)) hi = mid - 1;
    else if (at >= (ranges[mid * 2 + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}
