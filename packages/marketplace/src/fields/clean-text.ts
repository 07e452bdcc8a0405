// Character references a page escaped twice (`Jack &amp;amp; Jones` reads `Jack &amp; Jones`): the
// value is the text they stand for.
const REFERENCE =
  /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|nbsp|ndash|mdash|hellip|rsquo|lsquo|rdquo|ldquo|eacute|egrave|agrave|uuml|ouml|auml|szlig));/gi;
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
};

/** The text with character references left in it decoded (once: `&amp;lt;` becomes `&lt;`). */
export function decodeLeftoverReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name.toLowerCase()] ?? match;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex as string, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}

// Source text of markup, script or style: a tag, a statement of the storefront's loader or of a
// function, a rule block.
const CODE =
  /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|\bP\.(?:when|now|declare|register)\(|\bfunction\s*\(|\bvar\s+[A-Za-z_$][\w$]*\s*=|[.#]?[A-Za-z][\w-]*\s*\{[^{}]*:[^{}]*;?[^{}]*\}/;

/** True for text that is markup, script or style source rather than something a reader sees. */
export function isCode(text: string): boolean {
  return CODE.test(text);
}
