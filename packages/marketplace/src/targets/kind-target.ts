/**
 * A target of one of the page kinds besides search and details, as the user gave it, turned into
 * the identifier the crawl fetches by (an ASIN, a browse node id, a seller id, a prefix), or why it
 * cannot be. `marketplace` is the storefront a URL named.
 */
export type KindTarget = { ok: true; id: string; marketplace?: string } | { ok: false; reason: string };

export interface ResolveKindTargetOptions {
  /** Hosts allowed besides the storefronts, e.g. the simulator's `127.0.0.1:4010`. */
  extraHosts?: readonly string[];
}

export type KindTargetResolver = (value: string, options: ResolveKindTargetOptions) => KindTarget;
