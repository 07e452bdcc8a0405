import { parseProductPage, parseSearchPage } from '@crawl/marketplace';
import { renderProductPage, renderSearchPage } from '@crawl/marketplace-simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.ts';

const ORIGIN = 'https://www.amazon.com';

describe('ParsePool', () => {
  const pool = new ParsePool({ threads: 2, queue: 1, maxPageChars: 4 * 1024 * 1024, threadHeapMb: 256 });
  afterAll(() => pool.close());

  it('extracts a product page in a thread exactly as the parser does inline', async () => {
    const html = renderProductPage({ asin: 'B0SIM00004', size: 'small' })!.html;
    const options = { origin: ORIGIN, asin: 'B0SIM00004' };
    const fromThread = await pool.product(html, options);
    expect(fromThread.title).toBeTruthy();
    expect(fromThread).toEqual(parseProductPage(html, options));
  });

  it('extracts a search page in a thread exactly as the parser does inline', async () => {
    const html = renderSearchPage({ keyword: 'usb cable', size: 'small' }).html;
    const options = { origin: ORIGIN, keyword: 'usb cable', page: 1 };
    const fromThread = await pool.search(html, options);
    expect(fromThread.items.length).toBeGreaterThan(0);
    expect(fromThread).toEqual(parseSearchPage(html, options));
  });

  it('parses more pages than threads and queue slots at once, each getting its own result', async () => {
    const asins = ['B0SIM00001', 'B0SIM00002', 'B0SIM00003', 'B0SIM00004', 'B0SIM00005', 'B0SIM00006', 'B0SIM00007'];
    const results = await Promise.all(asins.map((asin) => pool.product(renderProductPage({ asin, size: 'small' })!.html, { origin: ORIGIN, asin })));
    expect(results.map((r) => r.asin)).toEqual(asins);
  });

  it('refuses a page over the size cap without sending it to a thread', async () => {
    const small = new ParsePool({ threads: 1, queue: 0, maxPageChars: 1000, threadHeapMb: 64 });
    try {
      await expect(small.product('x'.repeat(1001), { origin: ORIGIN, asin: 'B0SIM00004' })).rejects.toThrow(/1000-character parse limit/);
    } finally {
      await small.close();
    }
  });

  it('rejects with the parser error when extraction throws in the thread, and keeps serving', async () => {
    // Not a string (but with a length, so it passes the size check): the parser fails inside the thread.
    const notAPage = { length: 10 } as unknown as string;
    await expect(pool.product(notAPage, { origin: ORIGIN, asin: 'B0SIM00004' })).rejects.toThrow(/is not a function/);
    const html = renderProductPage({ asin: 'B0SIM00004', size: 'small' })!.html;
    expect((await pool.product(html, { origin: ORIGIN, asin: 'B0SIM00004' })).asin).toBe('B0SIM00004');
  });
});
