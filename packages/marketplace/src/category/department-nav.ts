import type { EndTag, StartTag } from 'parse5-sax-parser';
import { pathToSelected, type TreeEntry } from '../bestsellers/browse-tree.ts';
import type { BestsellerCategory } from '../bestsellers/types.ts';
import { cleanValue } from '../fields/validate-product.ts';
import { ElementStack } from '../html/element-stack.ts';
import type { PageText } from '../html/page-text.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';

// A department entry links a browse node: `/s?rh=n%3A172541`, `/s?node=172541`, `/b?node=172541`.
const NODE_IN_HREF = /[?&](?:rh=n(?:%3A|:)|node=)(\d{1,20})/i;
const INDENT = /\bs-navigation-indent-(\d)\b/;

const NAV_ANCHORS: RegionAnchors = { ids: new Set(['departments']), needles: [] };

/** The left column's department list of a results page: the selected category and the path to it. */
export interface DepartmentNav {
  categoryName?: string;
  categoryPath?: BestsellerCategory[];
}

/**
 * Reads `#departments`: entries are `li`s indented by `s-navigation-indent-N`; ancestors link their
 * node, the selected category is the bold entry without a link, its children follow, indented
 * deeper. "Any Department" and the other links without a node are no level of the path.
 */
export function readDepartmentNav(page: PageText): DepartmentNav {
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const entries: TreeEntry[] = [];
  let depth = 0;
  let inNav = 0;
  let inLink = 0;

  const handler = {
    startTag(tag: StartTag) {
      stack.open(tag.tagName);
      if (stack.hidden) return;
      const cls = attr(tag, 'class');
      if (attr(tag, 'id') === 'departments') {
        inNav++;
        stack.onClose(() => inNav--);
        return;
      }
      if (inNav === 0) return;
      if (tag.tagName === 'li') {
        depth = Number(INDENT.exec(cls ?? '')?.[1] ?? 0);
        return;
      }
      const link = tag.tagName === 'a';
      const selected = !link && inLink === 0 && tag.tagName === 'span' && hasClass(cls, 'a-text-bold');
      if (!link && !selected) return;
      if (link) {
        inLink++;
        stack.onClose(() => inLink--);
      }
      const entry: TreeEntry = { depth, name: '', href: link ? attr(tag, 'href') : undefined, selected };
      const parts = captures.begin();
      stack.onClose(() => {
        entry.name = normalizeSpace(captures.end(parts));
        if (entry.name !== '') entries.push(entry);
      });
    },
    endTag(tag: EndTag) {
      stack.close(tag.tagName);
    },
    text(value: string) {
      if (!stack.hidden) captures.text(value);
    },
  };
  scanRegions(page, NAV_ANCHORS, handler, stack);

  const categoryPath = pathToSelected(entries, (href) => {
    const nodeId = href === undefined ? undefined : NODE_IN_HREF.exec(href)?.[1];
    return nodeId === undefined ? { root: true } : { root: false, nodeId };
  });
  const nav: DepartmentNav = {};
  const categoryName = cleanValue(categoryPath?.at(-1)?.name);
  if (categoryPath !== undefined && categoryName !== undefined) {
    nav.categoryPath = categoryPath;
    nav.categoryName = categoryName;
  }
  return nav;
}
