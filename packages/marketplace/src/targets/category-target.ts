import type { KindTarget, ResolveKindTargetOptions } from './kind-target.ts';
import { NODE_ID, storefrontUrl } from './storefront-url.ts';

// Browse pages (`/b?node=`, `/<slug>/b?node=`, `/b/?node=`) and results pages (`/s?node=`, `/s?rh=n:`).
const BROWSE_PATH = /(?:^|\/)(?:b|s)\/?$/;
// In `rh`, the last `n:` is the deepest category (`n:172282,n:172541`).
const NODES_IN_REFINEMENTS = /(?:^|,)n:(\d{1,20})(?=,|$)/g;

/** Turns a category target (a browse node id or a category URL) into the node whose listing to fetch. */
export function resolveCategoryTarget(value: string, options: ResolveKindTargetOptions = {}): KindTarget {
  const input = value.trim();
  if (input === '') return { ok: false, reason: 'empty value' };
  if (NODE_ID.test(input)) return { ok: true, id: input };
  const checked = storefrontUrl(input, 'a browse node id or a category URL', options);
  if (!checked.ok) return checked;
  const { url, marketplace } = checked;
  const id = BROWSE_PATH.test(url.pathname) ? nodeOf(url.searchParams) : undefined;
  if (id === undefined) return { ok: false, reason: 'URL names no browse node (expected /b?node=<node id>, /s?node=<node id> or /s?rh=n:<node id>)' };
  return marketplace ? { ok: true, id, marketplace } : { ok: true, id };
}

function nodeOf(params: URLSearchParams): string | undefined {
  const node = params.get('node');
  if (node !== null) return NODE_ID.test(node) ? node : undefined;
  const refinements = params.get('rh');
  if (refinements === null) return undefined;
  return [...refinements.matchAll(NODES_IN_REFINEMENTS)].at(-1)?.[1];
}
