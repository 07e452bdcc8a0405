import type { ListMeta } from '@crawl/contracts';

/** One page of an offset-paged list. */
export interface ListPage<T> {
  data: T[];
  /** Absent on lists the server does not page (it then sent everything). */
  meta?: ListMeta;
}

/**
 * Every item of an offset-paged list, fetching pages as the loop asks for them. It stops at
 * `meta.total`, at an empty page, or after the first page of a list that has no `meta`.
 */
export async function* eachItem<T>(fetchPage: (offset: number) => Promise<ListPage<T>>): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset);
    yield* page.data;
    offset += page.data.length;
    if (!page.meta || page.data.length === 0 || offset >= page.meta.total) return;
  }
}
