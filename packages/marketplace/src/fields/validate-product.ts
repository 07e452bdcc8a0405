import type { ProductDetails } from '../product/types.ts';
import { decodeLeftoverReferences, isCode } from './clean-text.ts';
import { DELIVERY_LEAD_IN, DISCOVERY_LINK, EXPANDER_PROMPT, LOCATION_PROMPT, selectionLabel } from './interface-phrases.ts';

/** A text value as stored: references decoded; undefined when it is code or nothing. */
export function cleanValue(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const value = decodeLeftoverReferences(text).trim();
  return value === '' || isCode(value) ? undefined : value;
}

/**
 * The delivery location a header line names: without its lead-in ("Delivering to"), and none when
 * the line is only a prompt to set one ("Update location", "Atualizar CEP").
 */
export function cleanLocation(text: string | undefined): string | undefined {
  const value = cleanValue(text);
  if (value === undefined || LOCATION_PROMPT.test(value)) return undefined;
  const place = value.replace(DELIVERY_LEAD_IN, '').trim();
  return place === '' || LOCATION_PROMPT.test(place) ? undefined : place;
}

/**
 * The delivery location the page header names. Older headers greet on line 1 ("Deliver to Kim",
 * "Hello") and name the place on line 2; newer ones name it on line 1 ("Delivering to Rockville
 * 20852") and prompt on line 2 ("Update location"). Line 1 counts only when line 2 names no place
 * and line 1 holds a postal code, so a greeting's name is never taken for a place.
 */
export function headerLocation(line1: string | undefined, line2: string | undefined): string | undefined {
  const second = cleanLocation(line2);
  if (second !== undefined) return second;
  const first = cleanLocation(line1);
  return first !== undefined && (/\d/.test(first) || NEWER_LEAD_IN.test(line1 ?? '')) ? first : undefined;
}

// The newer header's own lead-in ("Delivering to Dubai"): what follows is a place, never a greeting.
const NEWER_LEAD_IN = /^\s*(?:delivering to|entregando (?:em|en|a))\s/i;

/** A description's lines without code or expander prompts. */
function cleanDescription(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const lines = decodeLeftoverReferences(text)
    .split('\n')
    .filter((line) => line.trim() !== '' && !isCode(line) && !EXPANDER_PROMPT.test(line.trim()));
  return lines.length === 0 ? undefined : lines.join('\n');
}

// A coupon states what it takes off: a number, in any language. A promotion banner in the coupon's
// place ("Promoção", "Music free for 3 months" without figures) is not one.
const COUPON_FIGURE = /\d/;

const TEXT_FIELDS = [
  'title',
  'brand',
  'manufacturer',
  'modelNumber',
  'format',
  'deal',
  'availability',
  'seller',
  'shipsFrom',
  'delivery',
  'dimensions',
  'weight',
] as const satisfies readonly (keyof ProductDetails)[];

/**
 * The one place a product's values are checked before they are stored: character references left
 * in a text are decoded; markup, script or style source, the storefront's interface phrases and
 * prompts are dropped (the field is then absent, and so named in `missingFields`); wrapped labels
 * are unwrapped. Parsers may read a wrong element; nothing they read that way is stored.
 */
export function validateProduct(details: ProductDetails): ProductDetails {
  const title = cleanValue(details.title);
  details.title = title ?? '';
  for (const field of TEXT_FIELDS) {
    if (field === 'title') continue;
    const value = cleanValue(details[field]);
    if (value === undefined) delete details[field];
    else details[field] = value;
  }
  const coupon = cleanValue(details.coupon);
  if (coupon !== undefined && COUPON_FIGURE.test(coupon)) details.coupon = coupon;
  else delete details.coupon;
  const description = cleanDescription(details.description);
  if (description === undefined) delete details.description;
  else details.description = description;

  details.features = cleanList(details.features, (value) => !EXPANDER_PROMPT.test(value));
  details.categories = cleanList(details.categories);
  if (details.authors) {
    const authors = details.authors
      .map((author) => ({ ...author, name: cleanValue(author.name) ?? '' }))
      .filter((author) => author.name !== '' && !DISCOVERY_LINK.test(author.name));
    if (authors.length > 0) details.authors = authors;
    else delete details.authors;
  }
  if (details.variations) {
    for (const variation of details.variations) {
      const label = variation.label === undefined ? undefined : cleanValue(selectionLabel(variation.label));
      if (label === undefined) delete variation.label;
      else variation.label = label;
    }
  }
  for (const table of ['specifications', 'details'] as const) {
    const rows = details[table];
    if (rows === undefined) continue;
    for (const [label, value] of Object.entries(rows)) {
      const clean = cleanValue(value);
      if (clean === undefined) delete rows[label];
      else rows[label] = clean;
    }
    if (Object.keys(rows).length === 0) delete details[table];
  }
  return details;
}

function cleanList(values: readonly string[], keep: (value: string) => boolean = () => true): string[] {
  const kept: string[] = [];
  for (const raw of values) {
    const value = cleanValue(raw);
    if (value !== undefined && keep(value)) kept.push(value);
  }
  return kept;
}
