import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';
import { NODE_ID, storefrontUrl } from './storefront-url.ts';

// `/zgbs/<slug>/<node>`, `/Best-Sellers-X/zgbs/<slug>/<node>`, `/gp/bestsellers/<slug>/<node>`, and
// the new-release and movers lists alike, or the node right after the list (`/gp/bestsellers/<node>`);
// the node must be a whole path segment.
const NODE_IN_LIST_PATH = /\/(?:zgbs|gp\/bestsellers|gp\/new-releases|gp\/movers-and-shakers)\/(?:[^/?#]+\/)?(\d{1,20})(?:[/?#;]|$)/i;
const LIST_PATH = /\/(?:zgbs|gp\/bestsellers|gp\/new-releases|gp\/movers-and-shakers)(?:[/?#]|$)/i;

/** Turns a bestsellers target (a browse node id or a best-seller list URL) into the node whose list to fetch. */
export function resolveBestsellersTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (NODE_ID.test(input)) return { ok: true, id: input };
  const checked = storefrontUrl(input, 'a browse node id or a best-seller list URL', options);
  if (!checked.ok) return checked;
  const match = NODE_IN_LIST_PATH.exec(checked.url.pathname);
  if (!match?.[1]) {
    const reason = LIST_PATH.test(checked.url.pathname)
      ? 'best-seller URL names no browse node (expected /zgbs/<category>/<node id>; a top-level list has none)'
      : 'URL is not a best-seller list (expected /zgbs/<category>/<node id> or /gp/bestsellers/<category>/<node id>)';
    return { ok: false, reason };
  }
  return checked.marketplace ? { ok: true, id: match[1], marketplace: checked.marketplace } : { ok: true, id: match[1] };
}
