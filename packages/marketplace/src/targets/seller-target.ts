import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';
import { storefrontUrl } from './storefront-url.ts';

/** A seller id as the storefronts print it: `A` and 12 to 14 more capitals and digits (`A1PA6795UKMFR9`). */
export const SELLER_ID = /^A[A-Z0-9]{12,14}$/;
// The pages that name a seller by id: the profile (`/sp?seller=`), its older addresses, and the
// seller's storefront (`/s?me=`).
const PROFILE_PATHS = /^\/(?:sp|gp\/aag\/main|gp\/help\/seller\/at-a-glance\.html)(?:\/[^/]*)?\/?$/i;
const STOREFRONT_PATH = /^\/s\/?$/;

/** Turns a seller target (a bare seller id, a profile or storefront URL) into the seller id whose profile to fetch. */
export function resolveSellerTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (SELLER_ID.test(input.toUpperCase()) && /^[A-Za-z0-9]+$/.test(input)) return { ok: true, id: input.toUpperCase() };
  const checked = storefrontUrl(input, 'a seller id or a seller profile URL', options);
  if (!checked.ok) return checked;
  const { url, marketplace } = checked;
  const named = PROFILE_PATHS.test(url.pathname)
    ? (url.searchParams.get('seller') ?? url.searchParams.get('sellerID'))
    : STOREFRONT_PATH.test(url.pathname)
      ? url.searchParams.get('me')
      : null;
  if (named === null) return { ok: false, reason: 'URL names no seller (expected /sp?seller=<id> or /s?me=<id>)' };
  const id = named.toUpperCase();
  if (!SELLER_ID.test(id)) return { ok: false, reason: `${named} is not a seller id (A and 12 to 14 capitals or digits)` };
  return marketplace ? { ok: true, id, marketplace } : { ok: true, id };
}
