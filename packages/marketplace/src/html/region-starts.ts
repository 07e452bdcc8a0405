import { startTagEnd } from './raw-text.ts';

/** What makes an element worth tokenizing: its id, or a substring of its start tag. */
export interface RegionAnchors {
  /** Element ids that start a region. */
  ids: ReadonlySet<string>;
  /** Id patterns that start a region (for ids with a variable part). */
  idPattern?: RegExp;
  /**
   * Substrings of a start tag (class names, attribute names) that make the element a region;
   * `accept`, when given, then looks at the whole start tag's source.
   */
  needles: readonly { text: string; accept?: (startTag: string) => boolean }[];
}

// Elements whose content the tokenizer reads as text: an anchor inside one is no element. Comments too.
const OPAQUE_OPENER = /<(script|style|noscript|textarea|title|iframe|xmp|noembed|noframes)(?=[\s/>])|<!--/gi;
// A start tag's name and complete attributes (each after whitespace, so a name is never split).
const START_TAG_ATTRIBUTES = /<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*/y;

/**
 * Offsets (ascending) of the start tags of the elements `anchors` select, found with string
 * searches instead of tokenizing: only these elements then need the tokenizer. Occurrences inside
 * script, style, comments and other raw-text elements are left out, as the tokenizer would. Returns
 * undefined when the page's raw text cannot be delimited this simply (a script body that opens an
 * HTML comment and then a `<script`, where `</script>` no longer ends it): the caller then scans
 * the whole page.
 */
export function findRegionStarts(html: string, anchors: RegionAnchors): number[] | undefined {
  const opaque = opaqueRanges(html);
  if (opaque === undefined) return undefined;
  const starts = new Set<number>();
  const consider = (at: number, accept?: (startTag: string) => boolean): void => {
    if (insideRange(opaque, at)) return;
    const open = html.lastIndexOf('<', at);
    if (open === -1 || starts.has(open)) return;
    // The anchor must lie within the attributes of the tag that the nearest `<` starts.
    START_TAG_ATTRIBUTES.lastIndex = open;
    if (!START_TAG_ATTRIBUTES.test(html) || START_TAG_ATTRIBUTES.lastIndex <= at) return;
    if (accept !== undefined) {
      const end = startTagEnd(html, open + 1);
      if (end === -1 || !accept(html.slice(open, end))) return;
    }
    starts.add(open);
  };

  for (let at = html.indexOf('id=', 1); at !== -1; at = html.indexOf('id=', at + 3)) {
    const before = html.charCodeAt(at - 1);
    if (before !== 0x20 && before !== 0x0a && before !== 0x09 && before !== 0x0d) continue;
    const id = attributeValue(html, at + 3);
    if (anchors.ids.has(id) || anchors.idPattern?.test(id)) consider(at);
  }
  for (const needle of anchors.needles) {
    for (let at = html.indexOf(needle.text); at !== -1; at = html.indexOf(needle.text, at + needle.text.length)) {
      consider(at, needle.accept);
    }
  }
  return [...starts].sort((a, b) => a - b);
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
    const closer = new RegExp(`</${name}[\\s/>]`, 'gi');
    closer.lastIndex = bodyStart;
    const close = closer.exec(html);
    const stop = close === null ? html.length : close.index;
    if (name.toLowerCase() === 'script') {
      const comment = html.indexOf('<!--', bodyStart);
      if (comment !== -1 && comment < stop && /<script/i.test(html.slice(comment, stop))) return undefined;
    }
    ranges.push(bodyStart, stop);
    opener.lastIndex = stop + 2;
  }
  return ranges;
}

function insideRange(ranges: number[], at: number): boolean {
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
