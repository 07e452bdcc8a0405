import { CATEGORIES, type Category, categoryIndexForKeyword } from './categories.ts';
import { hashString } from './rng.ts';

export interface SimulatedSuggestion {
  value: string;
  type: 'KEYWORD' | 'WIDGET';
}

/** The storefront shows up to 10 suggestions. */
export const MAX_SUGGESTIONS = 10;
/** Prefixes containing this have no suggestions (an empty list, as for gibberish on the storefront). */
export const NO_SUGGESTIONS_MARKER = 'nosuggest';

/**
 * Suggestions for `prefix`, the same on every call: the catalog's words that start with it first,
 * then the prefix completed with the nouns of the category it reads as; now and then a widget
 * suggestion second, as the storefront mixes them in.
 */
export function suggestionsFor(prefix: string): SimulatedSuggestion[] {
  const typed = prefix.replace(/\s+/g, ' ').trim().toLowerCase();
  if (typed === '' || typed.includes(NO_SUGGESTIONS_MARKER)) return [];
  const hash = hashString(typed, 37);
  const category = CATEGORIES[categoryIndexForKeyword(typed, hash)] as Category;
  const words = new Set<string>();
  for (const entry of CATEGORIES) {
    for (const word of [...entry.keywords, ...entry.nouns.map((n) => n.toLowerCase()), ...entry.brands.map((b) => b.toLowerCase())]) {
      if (word.startsWith(typed) && word !== typed) words.add(word);
    }
  }
  for (const noun of category.nouns) words.add(`${typed} ${noun.toLowerCase()}`);
  for (const adjective of category.adjectives) words.add(`${typed} ${adjective.toLowerCase()}`);
  const values = [...words].slice(0, MAX_SUGGESTIONS);
  const suggestions: SimulatedSuggestion[] = values.map((value) => ({ value, type: 'KEYWORD' }));
  if (hash % 4 === 0 && suggestions.length > 1) suggestions.splice(1, 0, { value: `${typed} ${category.path[1].toLowerCase()}`, type: 'WIDGET' });
  return suggestions.slice(0, MAX_SUGGESTIONS);
}
