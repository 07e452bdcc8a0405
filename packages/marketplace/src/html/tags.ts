import type { StartTag } from 'parse5-sax-parser';

export function attr(tag: StartTag, name: string): string | undefined {
  const attrs = tag.attrs;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i] as { name: string; value: string };
    if (a.name === name) return a.value;
  }
  return undefined;
}

/** Whole-token class match: `a-price` must not match `a-price-whole` or `aok-a-price`. */
export function hasClass(classValue: string | undefined, token: string): boolean {
  if (classValue === undefined) return false;
  let from = 0;
  for (;;) {
    const at = classValue.indexOf(token, from);
    if (at === -1) return false;
    const end = at + token.length;
    const before = at === 0 ? 32 : classValue.charCodeAt(at - 1);
    const after = end === classValue.length ? 32 : classValue.charCodeAt(end);
    if (before <= 32 && after <= 32) return true;
    from = end;
  }
}

/** Spacing collapsed; zero-width characters and direction marks (`12159\u200c Berlin`) are not text. */
export function normalizeSpace(text: string): string {
  return text
    .replace(/[\u200b-\u200f\u2060\ufeff]/g, '')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();
}

/** Makes `href` absolute against `origin`; undefined for javascript:, fragments and junk. */
export function absoluteUrl(href: string, origin: string): string | undefined {
  if (href === '' || href.startsWith('#') || /^javascript:/i.test(href)) return undefined;
  try {
    return new URL(href, origin).toString();
  } catch {
    return undefined;
  }
}
