// Runs inside a pool thread: one page in (as a string), its extracted data out.
import { parseProductPage, parseSearchPage, type ParseProductPageOptions, type ParseSearchPageOptions } from '@crawl/marketplace';

export type ParseTask = { kind: 'product'; html: string; options: ParseProductPageOptions } | { kind: 'search'; html: string; options: ParseSearchPageOptions };

export default function parse(task: ParseTask): unknown {
  return task.kind === 'product' ? parseProductPage(task.html, task.options) : parseSearchPage(task.html, task.options);
}
