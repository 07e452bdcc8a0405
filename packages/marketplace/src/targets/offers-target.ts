import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';
import { storefrontUrl } from './storefront-url.ts';

const ASIN = /^[A-Z0-9]{10}$/i;
// The offer listing (`/gp/offer-listing/X`) or the product itself (`/dp/X`, `/<slug>/dp/X`,
// `/gp/product/X`, `/gp/aw/d/X`): the ASIN must be a whole path segment.
const ASIN_IN_PATH = /\/(?:gp\/offer-listing|dp|gp\/product|gp\/aw\/d)\/([A-Za-z0-9]{10})(?:[/?#;]|$)/i;
// The all-offers display's own address names the ASIN in its query.
const AOD_PATH = /^\/gp\/product\/ajax\/aodAjaxMain\/?$/i;

/** Turns an offers target (a bare ASIN, an offer-listing, all-offers or product URL) into the ASIN whose offers to fetch. */
export function resolveOffersTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (ASIN.test(input)) return { ok: true, id: input.toUpperCase() };
  const checked = storefrontUrl(input, 'an ASIN or an offer-listing URL', options);
  if (!checked.ok) return checked;
  const { url, marketplace } = checked;
  const inQuery = AOD_PATH.test(url.pathname) ? url.searchParams.get('asin') : null;
  const asin = ASIN_IN_PATH.exec(url.pathname)?.[1] ?? (inQuery !== null && ASIN.test(inQuery) ? inQuery : undefined);
  if (asin === undefined) return { ok: false, reason: 'URL names no product (expected /gp/offer-listing/<ASIN> or /dp/<ASIN>)' };
  const id = asin.toUpperCase();
  return marketplace ? { ok: true, id, marketplace } : { ok: true, id };
}
