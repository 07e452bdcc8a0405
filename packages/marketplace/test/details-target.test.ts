import { describe, expect, it } from 'vitest';
import { resolveDetailsTarget } from '../src/index.ts';

describe('resolveDetailsTarget', () => {
  it('accepts a bare ASIN in any case and upper-cases it', () => {
    expect(resolveDetailsTarget('B08N5WRWNW')).toEqual({ ok: true, asin: 'B08N5WRWNW', source: 'asin' });
    expect(resolveDetailsTarget(' b08n5wrwnw ')).toEqual({ ok: true, asin: 'B08N5WRWNW', source: 'asin' });
    expect(resolveDetailsTarget('0316769487')).toEqual({ ok: true, asin: '0316769487', source: 'asin' });
  });

  it.each([
    ['https://www.amazon.com/dp/B08N5WRWNW', 'amazon.com'],
    ['https://www.amazon.com/Apple-MacBook-13-inch-256GB-Storage/dp/B08N5WRWNW/ref=sr_1_2?keywords=laptop', 'amazon.com'],
    ['https://www.amazon.de/gp/product/B08N5WRWNW?th=1', 'amazon.de'],
    ['https://www.amazon.co.jp/gp/aw/d/B08N5WRWNW', 'amazon.co.jp'],
    ['http://amazon.co.uk/dp/b08n5wrwnw#reviews', 'amazon.co.uk'],
    ['https://smile.amazon.com/dp/B08N5WRWNW', 'amazon.com'],
    ['https://WWW.AMAZON.COM.AU/dp/B08N5WRWNW', 'amazon.com.au'],
    ['www.amazon.fr/dp/B08N5WRWNW', 'amazon.fr'],
    // The mobile storefront and upper-case paths, as shared from phones and some browsers.
    ['https://m.amazon.com/dp/B08N5WRWNW', 'amazon.com'],
    ['m.amazon.de/dp/B08N5WRWNW?psc=1', 'amazon.de'],
    ['https://www.amazon.com/DP/B08N5WRWNW', 'amazon.com'],
    ['https://www.amazon.com/Some-Product/DP/b08n5wrwnw/ref=x', 'amazon.com'],
    ['https://www.amazon.com/GP/PRODUCT/B08N5WRWNW', 'amazon.com'],
  ])('reads the ASIN of %s', (url, marketplace) => {
    expect(resolveDetailsTarget(url)).toEqual({ ok: true, asin: 'B08N5WRWNW', source: 'url', marketplace });
  });

  it('accepts the simulator host when allowed explicitly, without a marketplace', () => {
    expect(resolveDetailsTarget('http://127.0.0.1:4010/dp/B0SIM00001', { extraHosts: ['127.0.0.1:4010'] })).toEqual({
      ok: true,
      asin: 'B0SIM00001',
      source: 'url',
    });
    expect(resolveDetailsTarget('http://127.0.0.1:4010/dp/B0SIM00001').ok).toBe(false);
  });

  it.each([
    ['', /empty/],
    ['B08N5WRWN', /not an ASIN/],
    ['B08N5WRWNW1', /not an ASIN/],
    ['hello world', /not an ASIN/],
    ['https://www.amazon.com@evil.com/dp/B08N5WRWNW', /credentials|not an allowed marketplace/],
    ['https://user:pw@www.amazon.com/dp/B08N5WRWNW', /credentials/],
    ['https://evil.com/www.amazon.com/dp/B08N5WRWNW', /not an allowed marketplace/],
    ['https://www.amazon.com.evil.com/dp/B08N5WRWNW', /not an allowed marketplace/],
    ['ftp://www.amazon.com/dp/B08N5WRWNW', /scheme/],
    ['javascript:alert(1)//www.amazon.com/dp/B08N5WRWNW', /scheme/],
    ['https://www.amazon.com/s?k=laptop', /no product ASIN/],
    ['https://www.amazon.com/dp/B08N5WRWNWX', /no product ASIN/],
    ['https://www.amazon.com/?q=/dp/B08N5WRWNW', /no product ASIN/],
  ])('rejects %j', (value, reason) => {
    const result = resolveDetailsTarget(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
