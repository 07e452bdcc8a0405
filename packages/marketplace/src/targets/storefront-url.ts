import { isAllowedMarketplaceHost } from '../hosts.ts';
import { marketplaceForHost } from '../marketplaces.ts';
import type { ResolveKindTargetOptions } from './kind-target.ts';

// Users paste `www.amazon.de/...` (or the mobile site's `m.amazon.de/...`) without a scheme often enough to accept it.
const SCHEMELESS_STOREFRONT = /^(?:www\.|smile\.|m\.)?amazon\.[a-z.]+\//i;

export type StorefrontUrl = { ok: true; url: URL; marketplace?: string } | { ok: false; reason: string };

/**
 * A target given as a URL, checked as details targets are: http(s) only, no credentials, a
 * storefront host (or one of `extraHosts`). `what` names what else the target could have been.
 */
export function storefrontUrl(input: string, what: string, options: ResolveKindTargetOptions, allowed = isAllowedMarketplaceHost): StorefrontUrl {
  let url: URL;
  try {
    url = new URL(SCHEMELESS_STOREFRONT.test(input) ? `https://${input}` : input);
  } catch {
    return { ok: false, reason: `not ${what}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `unsupported URL scheme ${url.protocol.replace(/:$/, '')}` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'URL must not contain credentials' };
  if (!allowed(url.host, options.extraHosts)) return { ok: false, reason: `host ${url.hostname} is not an allowed marketplace` };
  const marketplace = marketplaceForHost(url.hostname)?.domain;
  return marketplace ? { ok: true, url, marketplace } : { ok: true, url };
}

/** A browse node id: digits only (the storefront's are 3 to 11 digits; up to 20 accepted). */
export const NODE_ID = /^\d{1,20}$/;
