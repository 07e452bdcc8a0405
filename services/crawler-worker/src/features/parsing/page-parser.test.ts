import { parseSearchPage, readProductPage } from '@crawl/marketplace';
import { renderProductPage, renderSearchPage } from '@crawl/marketplace-simulator';
import { describe, expect, it } from 'vitest';
import { inlinePageParser, type PageSource } from './page-parser.ts';

describe('inlinePageParser', () => {
  it('reads a UTF-8 page from its bytes without decoding its text, exactly as from the text', async () => {
    const html = renderProductPage({ asin: 'B0SIM00005', size: 'small', domain: 'amazon.co.jp' })!.html;
    const options = { origin: 'https://www.amazon.co.jp', asin: 'B0SIM00005' };
    const page: PageSource = {
      get html(): string {
        throw new Error('decoded the page');
      },
      body: new TextEncoder().encode(html),
      charset: 'utf-8',
    };
    const reading = await inlinePageParser.product(page, options);
    expect(JSON.stringify(reading.product)).toMatch(/[\u0080-\uffff]/);
    expect(reading).toEqual(readProductPage(html, options));
  });

  it('decodes a page in another charset first, and parses the text of a page without bytes', async () => {
    const plain = renderSearchPage({ keyword: 'kettle', size: 'small' }).html;
    const options = { origin: 'https://www.amazon.com', keyword: 'kettle', page: 1 };
    const title = parseSearchPage(plain, options).items[0]?.title as string;
    const html = plain.replaceAll(title, `Théière ${title}`);
    const latin1 = new Uint8Array(Buffer.from(html, 'latin1'));
    const fromBytes = await inlinePageParser.search({ html: '', body: latin1, charset: 'windows-1252' }, options);
    expect(fromBytes.items[0]?.title).toBe(`Théière ${title}`);
    expect(await inlinePageParser.search({ html }, options)).toEqual(fromBytes);
  });
});
