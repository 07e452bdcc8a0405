import { MARKETPLACE_DOMAINS, parseSearchPage, readProductPage } from '@crawl/marketplace';
import { renderProductPage, renderSearchPage } from '@crawl/marketplace-simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.ts';

const ORIGIN = 'https://www.amazon.com';

describe('ParsePool', () => {
  const pool = new ParsePool({ threads: 2, queue: 1, maxPageBytes: 4 * 1024 * 1024, threadHeapMb: 256 });
  afterAll(() => pool.close());

  it('extracts a product page in a thread exactly as the parser does inline', async () => {
    const html = renderProductPage({ asin: 'B0SIM00004', size: 'small' })!.html;
    const options = { origin: ORIGIN, asin: 'B0SIM00004' };
    const fromThread = await pool.product({ html }, options);
    expect(fromThread.product.title).toBeTruthy();
    expect(fromThread.recognized).toBe(true);
    expect(fromThread).toEqual(readProductPage(html, options));
  });

  it('extracts a search page in a thread exactly as the parser does inline', async () => {
    const html = renderSearchPage({ keyword: 'usb cable', size: 'small' }).html;
    const options = { origin: ORIGIN, keyword: 'usb cable', page: 1 };
    const fromThread = await pool.search({ html }, options);
    expect(fromThread.items.length).toBeGreaterThan(0);
    expect(fromThread).toEqual(parseSearchPage(html, options));
  });

  it('takes the fetched bytes in their charset and moves them to the thread (emptied here)', async () => {
    const options = { origin: ORIGIN, asin: 'B0SIM00004' };
    const plain = renderProductPage({ asin: 'B0SIM00004', size: 'small' })!.html;
    const title = readProductPage(plain, options).product.title;
    const html = plain.replaceAll(title, `Café ${title}`);
    const latin1 = new Uint8Array(Buffer.from(html, 'latin1'));
    const decoded = new TextDecoder('windows-1252').decode(latin1);
    const fromThread = await pool.product({ html: decoded, body: latin1, charset: 'windows-1252' }, options);
    expect(fromThread.product.title).toMatch(/Café/);
    expect(fromThread).toEqual(readProductPage(decoded, options));
    expect(latin1.byteLength).toBe(0);
  });

  it('extracts full-size pages of every storefront from their UTF-8 bytes exactly as the parser does from their text', async () => {
    const domains = MARKETPLACE_DOMAINS.filter((domain) => ['amazon.de', 'amazon.fr', 'amazon.co.jp', 'amazon.in', 'amazon.com'].includes(domain));
    expect(domains.length).toBe(5);
    for (const domain of domains) {
      const html = renderProductPage({ asin: 'B0SIM00007', size: 'full', domain })!.html;
      expect(html).toMatch(/[\u0080-\uffff]/);
      const options = { origin: `https://www.${domain}`, asin: 'B0SIM00007' };
      const body = new TextEncoder().encode(html);
      const fromBytes = await pool.product({ html: '', body, charset: 'utf-8' }, options);
      expect(fromBytes.product.title, domain).toBeTruthy();
      expect(fromBytes, domain).toEqual(readProductPage(html, options));
      expect(body.byteLength).toBe(0);
    }
    const search = renderSearchPage({ keyword: 'café', size: 'small', domain: 'amazon.fr' }).html;
    const searchOptions = { origin: 'https://www.amazon.fr', keyword: 'café', page: 1 };
    const fromBytes = await pool.search({ html: '', body: new TextEncoder().encode(search), charset: 'UTF-8' }, searchOptions);
    expect(fromBytes.items.length).toBeGreaterThan(0);
    expect(fromBytes).toEqual(parseSearchPage(search, searchOptions));
  });

  it("copies a small body that shares its buffer (Node's Buffer pool) instead of taking the whole buffer", async () => {
    const html = '<html><body><span id="productTitle">Tiny</span></body></html>';
    const body = Buffer.from(html);
    expect(body.buffer.byteLength).toBeGreaterThan(body.byteLength);
    const neighbour = Buffer.from('neighbour');
    const { product } = await pool.product({ html, body, charset: 'utf-8' }, { origin: ORIGIN, asin: 'B0SIM00004' });
    expect(product.title).toBe('Tiny');
    expect(neighbour.toString()).toBe('neighbour');
    expect(body.toString()).toBe(html);
  });

  it('parses more pages than threads and queue slots at once, each getting its own result', async () => {
    const asins = ['B0SIM00001', 'B0SIM00002', 'B0SIM00003', 'B0SIM00004', 'B0SIM00005', 'B0SIM00006', 'B0SIM00007'];
    const results = await Promise.all(asins.map((asin) => pool.product({ html: renderProductPage({ asin, size: 'small' })!.html }, { origin: ORIGIN, asin })));
    expect(results.map((r) => r.product.asin)).toEqual(asins);
  });

  it('parses many full-size pages in a row within a small thread heap', async () => {
    const one = new ParsePool({ threads: 1, queue: 0, maxPageBytes: 4 * 1024 * 1024, threadHeapMb: 64 });
    try {
      const html = renderProductPage({ asin: 'B0SIM00004', size: 'full' })!.html;
      // 60 pages of ~1.5 MB through a 64 MB heap: a page kept on the heap per parse would exhaust it.
      for (let i = 0; i < 60; i += 1) {
        expect((await one.product({ html: `${html}${' '.repeat(i)}` }, { origin: ORIGIN, asin: 'B0SIM00004' })).product.asin).toBe('B0SIM00004');
      }
    } finally {
      await one.close();
    }
  }, 60_000);

  it('takes a burst on a cold pool with no queue: the pages beyond the threads wait, none is refused', async () => {
    const cold = new ParsePool({ threads: 2, queue: 0, maxPageBytes: 4 * 1024 * 1024, threadHeapMb: 128 });
    try {
      const asins = ['B0SIM00001', 'B0SIM00002', 'B0SIM00003', 'B0SIM00004', 'B0SIM00005', 'B0SIM00006'];
      const results = await Promise.all(
        asins.map((asin) => cold.product({ html: renderProductPage({ asin, size: 'small' })!.html }, { origin: ORIGIN, asin })),
      );
      expect(results.map((r) => r.product.asin)).toEqual(asins);
    } finally {
      await cold.close();
    }
  });

  it('refuses a page over the size cap without sending it to a thread', async () => {
    const small = new ParsePool({ threads: 1, queue: 0, maxPageBytes: 1000, threadHeapMb: 64 });
    try {
      await expect(small.product({ html: 'x'.repeat(1001) }, { origin: ORIGIN, asin: 'B0SIM00004' })).rejects.toThrow(/1000-byte parse limit/);
    } finally {
      await small.close();
    }
  });

  it('rejects with the parser error when extraction throws in the thread, and keeps serving', async () => {
    // No options: the parser fails on its first read of them, inside the thread.
    const html = renderProductPage({ asin: 'B0SIM00004', size: 'small' })!.html;
    const inline = (() => {
      try {
        readProductPage(html, null as never);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('the parser accepted missing options');
    })();
    await expect(pool.product({ html }, null as never)).rejects.toThrow(inline);
    expect((await pool.product({ html }, { origin: ORIGIN, asin: 'B0SIM00004' })).product.asin).toBe('B0SIM00004');
  });
});
