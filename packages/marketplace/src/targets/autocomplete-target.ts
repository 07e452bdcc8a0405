import { isAllowedCompletionHost, SUGGESTIONS_PATH } from '../autocomplete/completion-endpoint.ts';
import { marketplaceById } from '../marketplaces.ts';
import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';
import { storefrontUrl } from './storefront-url.ts';

export const MAX_PREFIX_LENGTH = 100;
// Control characters are never typed into a search box.
const CONTROL = /\p{Cc}/u;
const LOOKS_LIKE_URL = /^https?:\/\//i;

/**
 * Turns an autocomplete target into the prefix to ask suggestions for: the text as typed (spacing
 * collapsed, up to 100 characters), or a suggestion endpoint URL's `prefix`. Any other URL is refused:
 * a link pasted into the list is a mistake more likely than a prefix.
 */
export function resolveAutocompleteTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.replace(/\s+/g, ' ').trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (CONTROL.test(value)) return { ok: false, reason: 'prefix must not contain control characters' };
  if (!LOOKS_LIKE_URL.test(input)) {
    return input.length > MAX_PREFIX_LENGTH ? { ok: false, reason: `prefix longer than ${MAX_PREFIX_LENGTH} characters` } : { ok: true, id: input };
  }
  const checked = storefrontUrl(input, 'a prefix or a suggestions URL', options, isAllowedCompletionHost);
  if (!checked.ok) return { ok: false, reason: checked.reason.replace('an allowed marketplace', "an allowed marketplace's suggestion host") };
  const { url } = checked;
  const prefix = url.searchParams.get('prefix')?.replace(/\s+/g, ' ').trim();
  if (url.pathname !== SUGGESTIONS_PATH || !prefix)
    return { ok: false, reason: `URL is not a suggestions request (expected ${SUGGESTIONS_PATH}?prefix=<prefix>)` };
  if (prefix.length > MAX_PREFIX_LENGTH) return { ok: false, reason: `prefix longer than ${MAX_PREFIX_LENGTH} characters` };
  const marketplace = marketplaceById(url.searchParams.get('mid') ?? '')?.domain;
  return marketplace ? { ok: true, id: prefix, marketplace } : { ok: true, id: prefix };
}
