import { makeCatalogAsin } from './asin.ts';
import { CATEGORIES, type Category, localizedCategory } from './categories.ts';
import { hashString } from './rng.ts';

/** One level of a browse node's path as the storefront links it. */
export interface NodeLevel {
  name: string;
  /** Top categories are linked by slug only; deeper ones by node id. */
  nodeId?: string;
  slug: string;
}

/** A browse node of the simulated storefront: any id of 1 to 20 digits is one. */
export interface BrowseNode {
  nodeId: string;
  /** The catalog category its products come from. */
  categoryIndex: number;
  category: Category;
  /** Its name (the last level of `path`). */
  name: string;
  /** From the top category down to this node. */
  path: NodeLevel[];
}

export const NODE_ID = /^\d{1,20}$/;
/** Ranked lists hold the top 100, 50 a page. */
export const LIST_LENGTH = 100;
export const LIST_PAGE_SIZE = 50;

function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'category'
  );
}

/**
 * The node behind `nodeId`, the same on every call: a catalog category picked by the id, and a name
 * of its own under the category's two levels (`Electronics › Headphones › Noise Cancelling Headphones`).
 */
export function browseNode(nodeId: string, language = 'en'): BrowseNode {
  const hash = hashString(nodeId, 23);
  const categoryIndex = hash % CATEGORIES.length;
  const category = CATEGORIES[categoryIndex] as Category;
  const [top, sub] = category.path;
  const leaf = category.nouns[Math.floor(hash / CATEGORIES.length) % category.nouns.length] as string;
  const topName = localizedCategory(top, language);
  const subName = localizedCategory(sub, language);
  const parentId = String(1_000_000 + (hashString(`${categoryIndex}`, 29) % 9_000_000));
  const path: NodeLevel[] = [
    { name: topName, slug: slugOf(top) },
    { name: subName, nodeId: parentId, slug: slugOf(top) },
    { name: leaf, nodeId, slug: slugOf(top) },
  ];
  return { nodeId, categoryIndex, category, name: leaf, path };
}

/** The list's 100 products in rank order: catalog ASINs of the node's category, one list per kind of list. */
export function rankedAsins(node: BrowseNode, list: string): string[] {
  return Array.from({ length: LIST_LENGTH }, (_, i) => makeCatalogAsin(node.categoryIndex, `zg|${list}|${node.nodeId}|${i + 1}`));
}

/** A category listing's products on `page`: `perPage` organic ASINs and the ads among them. */
export function listingAsins(node: BrowseNode, page: number, perPage: number): { organic: string[]; sponsored: string[] } {
  const organic = Array.from({ length: perPage }, (_, i) => makeCatalogAsin(node.categoryIndex, `node|${node.nodeId}|${page}|${i}`));
  const sponsored = [0, 1, 2].map((i) => makeCatalogAsin(node.categoryIndex, `node|${node.nodeId}|${page}|sp|${i}`));
  return { organic, sponsored };
}
