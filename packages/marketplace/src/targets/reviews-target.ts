import { isAllowedMarketplaceHost } from '../hosts.ts';
import { marketplaceForHost } from '../marketplaces.ts';
import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';

const ASIN = /^[A-Z0-9]{10}$/i;
// The review list (`/product-reviews/X`, `/<slug>/product-reviews/X`) or the product itself
// (`/dp/X`, `/<slug>/dp/X`, `/gp/product/X`): the ASIN must be a whole path segment.
const ASIN_IN_PATH = /\/(?:product-reviews|dp|gp\/product|gp\/aw\/d)\/([A-Za-z0-9]{10})(?:[/?#;]|$)/i;
const SCHEMELESS_STOREFRONT = /^(?:www\.|smile\.|m\.)?amazon\.[a-z.]+\//i;

/** Turns a reviews target (a bare ASIN, a review list or product URL) into the ASIN whose reviews to fetch. */
export function resolveReviewsTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (ASIN.test(input)) return { ok: true, id: input.toUpperCase() };

  let url: URL;
  try {
    url = new URL(SCHEMELESS_STOREFRONT.test(input) ? `https://${input}` : input);
  } catch {
    return { ok: false, reason: 'not an ASIN or a review list URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `unsupported URL scheme ${url.protocol.replace(/:$/, '')}` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'URL must not contain credentials' };
  if (!isAllowedMarketplaceHost(url.host, options.extraHosts)) return { ok: false, reason: `host ${url.hostname} is not an allowed marketplace` };
  const match = ASIN_IN_PATH.exec(url.pathname);
  if (!match?.[1]) return { ok: false, reason: 'URL names no product (expected /product-reviews/<ASIN> or /dp/<ASIN>)' };
  const id = match[1].toUpperCase();
  const marketplace = marketplaceForHost(url.hostname)?.domain;
  return marketplace ? { ok: true, id, marketplace } : { ok: true, id };
}
