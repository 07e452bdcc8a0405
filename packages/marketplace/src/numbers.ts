// Storefronts in ar-SA / ar-AE may print Arabic-Indic digits and separators; map them to ASCII so
// every number parser below works on one alphabet.
const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9\u066b\u066c]/g;

export function normalizeDigits(text: string): string {
  return text.replace(ARABIC_DIGITS, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0x066b) return '.';
    if (code === 0x066c) return ',';
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/** Separators that only ever group thousands: spaces of every width and the Swiss apostrophe. */
export function isGroupingOnly(ch: string): boolean {
  return ch === ' ' || ch === '\u00a0' || ch === '\u202f' || ch === '\u2009' || ch === "'" || ch === '’';
}

// A run of digits with single separators between digit groups; a separator must be followed by a
// digit, so `12,99 €` and `$5 - $10` both stop at the right place.
export const NUMBER_RUN = /\d+(?:[.,\u00a0\u202f\u2009 '’]\d+)*/;

/**
 * Integer in text like `29,836 ratings`, `29.836 Sternebewertungen`, `29 836 évaluations`,
 * `(1,234)`. Abbreviated counts (`29.8K`) are approximations, so they yield undefined.
 */
export function parseCount(text: string): number | undefined {
  const normalized = normalizeDigits(text);
  const match = NUMBER_RUN.exec(normalized);
  if (!match) return undefined;
  const after = normalized.slice(match.index + match[0].length);
  if (/^\s*[KkMm](?![a-z])/.test(after) || /^\s*(?:mil|Tsd|k)\b/i.test(after)) return undefined;
  const digits = match[0].replace(/\D/g, '');
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Star rating in `4.7 out of 5 stars`, `4,7 von 5 Sternen`, `5つ星のうち4.7`,
 * `5 yıldız üzerinden 4,7`. The scale (5) comes first in some languages, so when the first number
 * is a bare 5 and another follows, the other one is the rating.
 */
export function parseRating(text: string): number | undefined {
  const numbers = [...normalizeDigits(text).matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => m[0]);
  const first = numbers[0];
  if (first === undefined) return undefined;
  const second = numbers[1];
  const chosen = first === '5' && second !== undefined && second !== '5' ? second : first;
  const value = Number(chosen.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 && value <= 5 ? value : undefined;
}
