import { cleanValue } from '../fields/validate-product.ts';
import type { ParseSuggestionsOptions, Suggestion, SuggestionsPage } from './types.ts';

const NOT_RECOGNIZED: SuggestionsPage = { suggestions: [], recognized: false };

/**
 * Reads the storefront's suggestion endpoint's answer (`/api/2017/suggestions`):
 * `{ "prefix": "iph", "suggestions": [{ "type": "KEYWORD", "value": "iphone 15 case", … }], … }`.
 * The order is the storefront's; a suggestion without a text value is left out.
 */
export function parseSuggestions(body: string | Uint8Array, options: ParseSuggestionsOptions): SuggestionsPage {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  // A captcha or sign-in page is HTML: not worth handing to the JSON parser.
  if (!text.trimStart().startsWith('{')) return NOT_RECOGNIZED;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return NOT_RECOGNIZED;
  }
  if (typeof document !== 'object' || document === null) return NOT_RECOGNIZED;
  const { prefix, suggestions } = document as { prefix?: unknown; suggestions?: unknown };
  if (!Array.isArray(suggestions) || typeof prefix !== 'string') return NOT_RECOGNIZED;
  if (samePrefix(prefix) !== samePrefix(options.prefix)) return NOT_RECOGNIZED;
  const read: Suggestion[] = [];
  for (const entry of suggestions) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { value, type } = entry as { value?: unknown; type?: unknown };
    const cleaned = typeof value === 'string' ? cleanValue(value.replace(/\s+/g, ' ')) : undefined;
    if (cleaned === undefined) continue;
    const suggestion: Suggestion = { position: read.length + 1, value: cleaned };
    if (typeof type === 'string' && type !== '') suggestion.type = type;
    read.push(suggestion);
  }
  return { suggestions: read, recognized: true };
}

function samePrefix(prefix: string): string {
  return prefix.replace(/\s+/g, ' ').trim().toLowerCase();
}
