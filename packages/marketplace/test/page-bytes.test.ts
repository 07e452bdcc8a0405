import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanHtml } from '../src/html/sax-scanner.ts';
import { pageText } from '../src/html/page-text.ts';
import { parseProductPage, parseSearchPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

// The parsers take a page as text or as its UTF-8 bytes; read as bytes, the page is never decoded
// whole (see src/html/page-text.ts). Every field must come out the same either way.
const utf8 = (html: string) => new TextEncoder().encode(html);

const STOREFRONTS: Record<string, string> = {
  us: 'https://www.amazon.com',
  uk: 'https://www.amazon.co.uk',
  de: 'https://www.amazon.de',
  fr: 'https://www.amazon.fr',
  jp: 'https://www.amazon.co.jp',
};
const originOf = (name: string) => STOREFRONTS[/-(\w+)\.html$/.exec(name)?.[1] ?? 'us'] ?? 'https://www.amazon.com';

function productPage(storefront: { title: string; price: string; feature: string; crumb: string; image: string }): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Amazon : ${storefront.title}</title>
<script>var s = "<span id=\\"productTitle\\">not this – ü</span>";</script></head><body>
<div id="wayfinding-breadcrumbs_feature_div"><ul><li><a href="/b/ref=x?node=1">${storefront.crumb}</a></li></ul></div>
<h1 id="title"><span id="productTitle">  ${storefront.title}  </span></h1>
<div id="corePrice_feature_div"><span class="a-price"><span class="a-offscreen">${storefront.price}</span></span></div>
<div id="feature-bullets"><ul><li><span class="a-list-item">${storefront.feature}</span></li></ul></div>
<div id="imgTagWrapperId"><img id="landingImage" alt="${storefront.title}" src="https://m.media-amazon.com/images/I/${storefront.image}.jpg"></div>
</body></html>`;
}

describe('parsing a page from its UTF-8 bytes', () => {
  it('reads every captured product and search page exactly as from its text', () => {
    const names = readdirSync(new URL('./fixtures/', import.meta.url)).filter((name) => /^(product|search)-.*\.html$/.test(name));
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const html = fixture(name);
      const origin = originOf(name);
      if (name.startsWith('search-')) {
        const options = { origin, keyword: 'laptop', page: 1 };
        expect(parseSearchPage(utf8(html), options), name).toEqual(parseSearchPage(html, options));
      } else {
        const options = { origin };
        expect(parseProductPage(utf8(html), options), name).toEqual(parseProductPage(html, options));
      }
    }
  });

  it('keeps accents, CJK and decoded references in titles, features and breadcrumbs', () => {
    const html = productPage({
      title: 'Crème brûlée &eacute;t&eacute; – 東京タワー &#8364;5 &#x1F600; &amp; co',
      price: '$1,299.00',
      feature: 'Größe:&nbsp;10&#160;cm, &#128; is €, naïve',
      crumb: 'Küche &amp; Haushalt',
      image: '71xyz',
    });
    const product = parseProductPage(utf8(html), { origin: 'https://www.amazon.com', asin: 'B0BYTES001' });
    expect(product.title).toBe('Crème brûlée été – 東京タワー €5 😀 & co');
    expect(product.features).toEqual(['Größe: 10 cm, € is €, naïve']);
    expect(product.categories).toEqual(['Küche & Haushalt']);
    expect(product.price).toEqual({ amount: 1299, currency: 'USD', raw: '$1,299.00' });
    expect(product).toEqual(parseProductPage(html, { origin: 'https://www.amazon.com', asin: 'B0BYTES001' }));
  });

  it.each([
    ['https://www.amazon.in', '₹1,299.00', { amount: 1299, currency: 'INR', raw: '₹1,299.00' }],
    ['https://www.amazon.de', '1.299,99\u00a0€', { amount: 1299.99, currency: 'EUR', raw: '1.299,99\u00a0€' }],
    ['https://www.amazon.fr', '1\u202f299,99&nbsp;&euro;', { amount: 1299.99, currency: 'EUR', raw: '1\u202f299,99\u00a0€' }],
    ['https://www.amazon.co.jp', '￥1,299', { amount: 1299, currency: 'JPY', raw: '￥1,299' }],
    ['https://www.amazon.co.jp', '&yen;2,480', { amount: 2480, currency: 'JPY', raw: '¥2,480' }],
  ])('reads the price on %s from %s', (origin, price, expected) => {
    const html = productPage({ title: 'Wasserkocher – Edelstahl', price, feature: 'x', crumb: 'y', image: 'z' });
    const product = parseProductPage(utf8(html), { origin, asin: 'B0BYTES002' });
    expect(product.price).toEqual(expected);
    expect(product).toEqual(parseProductPage(html, { origin, asin: 'B0BYTES002' }));
  });

  it('reads a search card with a non-ASCII title, price and link', () => {
    const html = `<div data-asin="B000000001" data-component-type="s-search-result" class="s-result-item"><h2><a href="/Caf%C3%A9-Kanne/dp/B000000001">Café-Kanne &ndash; 1,5&nbsp;l, 日本製</a></h2>
      <span class="a-price"><span class="a-offscreen">24,99&nbsp;€</span></span></div>`;
    const options = { origin: 'https://www.amazon.de', keyword: 'kanne', page: 1 };
    const page = parseSearchPage(utf8(html), options);
    expect(page.items[0]?.title).toBe('Café-Kanne – 1,5 l, 日本製');
    expect(page.items[0]?.price).toEqual({ amount: 24.99, currency: 'EUR', raw: '24,99\u00a0€' });
    expect(page).toEqual(parseSearchPage(html, options));
  });

  it('hands the scanner Unicode text and attribute values, references and NUL replacements included', () => {
    const seen: string[] = [];
    const handler = {
      startTag: (tag: { tagName: string; attrs: { name: string; value: string }[] }) => {
        for (const a of tag.attrs) seen.push(`${a.name}=${a.value}`);
      },
      endTag: () => undefined,
      text: (text: string) => seen.push(text),
    };
    const html = '<p title="d&eacute;j&agrave; vu ™ &#x4E2D; a\u0000b">caf&eacute; – 中</p>';
    scanHtml(pageText(utf8(html)), handler);
    expect(seen.join('|')).toBe('title=déjà vu ™ 中 a\ufffdb|café – 中');
    const fromText = seen.splice(0);
    scanHtml(html, handler);
    expect(seen).toEqual(fromText);
  });

  it('replaces invalid UTF-8 in a value as a decoder of the whole page would', () => {
    const before = utf8('<html><body><span id="productTitle">A');
    const after = utf8('B</span><div id="feature-bullets"><ul><li><span>x é</span></li></ul></div></body></html>');
    for (const bad of [[0xff], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0x80, 0x80, 0x41]]) {
      const bytes = new Uint8Array([...before, ...bad, ...after]);
      const fromText = parseProductPage(new TextDecoder().decode(bytes), { origin: 'https://www.amazon.com' });
      expect(fromText.title).toMatch(/^A\ufffd+A?B$/);
      expect(parseProductPage(bytes, { origin: 'https://www.amazon.com' })).toEqual(fromText);
    }
  });

  it('drops a UTF-8 byte order mark as a decoder would, and reads an ASCII page as it is', () => {
    const html = '<html><body><h1 id="title"><span id="productTitle">Kettle</span></h1></body></html>';
    const withMark = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(html)]);
    expect(pageText(withMark)).toEqual({ text: html, utf8Bytes: false });
    expect(parseProductPage(withMark, { origin: 'https://www.amazon.com' }).title).toBe('Kettle');
    expect(pageText(utf8('<p>é</p>'))).toEqual({ text: '<p>\u00c3\u00a9</p>', utf8Bytes: true });
  });
});
