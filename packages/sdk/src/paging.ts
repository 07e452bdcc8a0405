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

/** One page of a cursor-paged list: its items and the cursor of the page after it (null at the end). */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Every item of a cursor-paged list, fetching the page after each `nextCursor` as the loop asks
 * for it. It stops when a page has no `nextCursor`, or hands back the cursor it was asked with
 * (which would send the loop round forever). An empty page with a new cursor is followed: a
 * downsampled history may have a stretch with no points before more come.
 */
export async function* eachCursorItem<T>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.nextCursor || page.nextCursor === cursor) return;
    cursor = page.nextCursor;
  }
}
