import type { RecordLocation } from '@crawl/contracts';

/** Letters and digits only, upper case: `sw1a 1aa`, `SW1A-1AA` and `SW1A1AA` are one postal code. */
const compact = (text: string): string => text.toUpperCase().replace(/[^0-9A-Z]/g, '');

/**
 * Whether a page was shown for the delivery location asked for, from what its header names. The
 * header shows the postal code as the storefront writes it (`Berlin 10115`, `〒100-0001`), and some
 * storefronts only its start (`London SW1A 1` for `SW1A 1AA`): verified when the header holds the
 * whole code, or a start of it of at least five characters that ends where the header's code ends.
 */
export function checkLocation(requested: string, observed: string | undefined): RecordLocation {
  const location: RecordLocation = { requested, verified: false };
  if (observed === undefined) return location;
  location.observed = observed;
  const wanted = compact(requested);
  const words = observed
    .toUpperCase()
    .split(/[^0-9A-Z-]+/)
    .filter(Boolean);
  // The code may be split over two words of the header (`SW1A 1`): try every run of words.
  for (let from = 0; from < words.length && !location.verified; from += 1) {
    let shown = '';
    for (let to = from; to < words.length; to += 1) {
      shown += compact(words[to] as string);
      if (shown === wanted || (shown.length >= 5 && shown.length < wanted.length && wanted.startsWith(shown) && /\d/.test(shown))) {
        location.verified = true;
        break;
      }
      if (!wanted.startsWith(shown)) break;
    }
  }
  return location;
}
