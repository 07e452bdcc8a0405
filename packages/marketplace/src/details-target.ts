import { isAllowedMarketplaceHost } from './hosts.ts';
import { marketplaceForHost } from './marketplaces.ts';

export type DetailsTarget = { ok: true; asin: string; source: 'asin' | 'url'; marketplace?: string } | { ok: false; reason: string };

export interface ResolveDetailsTargetOptions {
  /** Hosts allowed besides the storefronts, e.g. the simulator's `127.0.0.1:4010`. */
  extraHosts?: readonly string[];
}

const ASIN = /^[A-Z0-9]{10}$/i;
// /dp/X, /<slug>/dp/X/..., /gp/product/X, /gp/aw/d/X, in any case (the storefront serves /DP/ too);
// the ASIN must be a whole path segment.
const ASIN_IN_PATH = /\/(?:dp|gp\/product|gp\/aw\/d)\/([A-Za-z0-9]{10})(?:[/?#;]|$)/i;
// Users paste `www.amazon.de/dp/...` (or the mobile site's `m.amazon.de/...`) without a scheme often enough to accept it.
const SCHEMELESS_STOREFRONT = /^(?:www\.|smile\.|m\.)?amazon\.[a-z.]+\//i;

export function isAsin(value: string): boolean {
  return ASIN.test(value);
}

/** Turns user input (a bare ASIN or a product URL) into the ASIN to fetch, or says why it cannot. */
export function resolveDetailsTarget(value: string, options: ResolveDetailsTargetOptions = {}): DetailsTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (ASIN.test(input)) return { ok: true, asin: input.toUpperCase(), source: 'asin' };

  const candidate = SCHEMELESS_STOREFRONT.test(input) ? `https://${input}` : input;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, reason: 'not an ASIN or a product URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `unsupported URL scheme ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'URL must not contain credentials' };
  }
  if (!isAllowedMarketplaceHost(url.host, options.extraHosts)) {
    return { ok: false, reason: `host ${url.hostname} is not an allowed marketplace` };
  }
  const match = ASIN_IN_PATH.exec(url.pathname);
  if (!match?.[1]) return { ok: false, reason: 'URL has no product ASIN (expected /dp/<ASIN>)' };

  const marketplace = marketplaceForHost(url.hostname)?.domain;
  const asin = match[1].toUpperCase();
  return marketplace ? { ok: true, asin, source: 'url', marketplace } : { ok: true, asin, source: 'url' };
}
