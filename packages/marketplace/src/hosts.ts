import { marketplaceForHost } from './marketplaces.ts';

// A host as URL#host yields it: lowercase name, optional non-default port. Anything else (paths,
// userinfo, spaces) is not a host and must not be allowed by accident.
const HOST_SHAPE = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * True when `host` (as given by `new URL(x).host`) is a storefront host: exactly `<domain>`,
 * `www.<domain>`, `smile.<domain>` or `m.<domain>` for a domain in MARKETPLACES, or one of `extraHosts`
 * (compared case-insensitively, port included — e.g. the simulator's `127.0.0.1:4010`).
 */
export function isAllowedMarketplaceHost(host: string, extraHosts: readonly string[] = []): boolean {
  const normalized = host.trim().toLowerCase().replace(/\.$/, '');
  if (!HOST_SHAPE.test(normalized)) return false;
  for (const extra of extraHosts) {
    if (extra.trim().toLowerCase() === normalized) return true;
  }
  // A port on a storefront host never happens on the real site; URL#host drops default ports.
  if (normalized.includes(':')) return false;
  return marketplaceForHost(normalized) !== undefined;
}
