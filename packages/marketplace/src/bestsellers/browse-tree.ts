import type { BestsellerCategory } from './types.ts';

// `/zgbs/<slug>/<node>`, `/gp/bestsellers/<slug>/<node>`, the new-release and movers lists alike.
const LIST_LINK = /\/(?:zgbs|bestsellers|new-releases|movers-and-shakers)(?:\/([^/?#]+))?(?:\/(\d{1,20}))?/i;
const REF_SEGMENT = /^ref=/i;

/** What a tree entry's link names: a category (slug, node id when numeric) or the tree's root. */
export function linkedCategory(href: string | undefined): { root: boolean; nodeId?: string } {
  if (href === undefined) return { root: false };
  const match = LIST_LINK.exec(href);
  if (!match) return { root: false };
  const slug = match[1];
  if (slug === undefined || REF_SEGMENT.test(slug)) return { root: true };
  return match[2] === undefined ? { root: false } : { root: false, nodeId: match[2] };
}

/** One entry of the tree as read: its depth (nesting of groups or lists), name, link and whether selected. */
export interface TreeEntry {
  depth: number;
  name: string;
  href: string | undefined;
  selected: boolean;
}

/**
 * The path from the top category to the selected one: the last entry seen at each shallower depth
 * before the selected entry (the tree lists the ancestors, the selected entry, then its children).
 * The root ("Any Department", linked to the list of all departments) is left out.
 */
export function pathToSelected(
  entries: readonly TreeEntry[],
  linked: (href: string | undefined) => { root: boolean; nodeId?: string } = linkedCategory,
): BestsellerCategory[] | undefined {
  const chain: TreeEntry[] = [];
  for (const entry of entries) {
    while (chain.length > 0 && (chain[chain.length - 1] as TreeEntry).depth >= entry.depth) chain.pop();
    chain.push(entry);
    if (entry.selected) {
      const path: BestsellerCategory[] = [];
      for (const level of chain) {
        const link = linked(level.href);
        if (link.root && !level.selected) continue;
        path.push(link.nodeId === undefined ? { name: level.name } : { name: level.name, nodeId: link.nodeId });
      }
      return path.length > 0 ? path : undefined;
    }
  }
  return undefined;
}
