import { describe, expect, it } from 'vitest';
import { suggestionsUrl } from '../src/autocomplete/completion-endpoint.ts';
import { resolveAutocompleteTarget } from '../src/targets/autocomplete-target.ts';
import { resolveBestsellersTarget } from '../src/targets/bestsellers-target.ts';
import { resolveCategoryTarget } from '../src/targets/category-target.ts';

const SIMULATOR = { extraHosts: ['127.0.0.1:4010'] };

describe('resolveBestsellersTarget', () => {
  it.each([
    ['172541', { ok: true, id: '172541' }],
    [' 172541 ', { ok: true, id: '172541' }],
    [
      'https://www.amazon.com/Best-Sellers-Electronics-Headphones/zgbs/electronics/172541/ref=zg_bs_nav_1',
      { ok: true, id: '172541', marketplace: 'amazon.com' },
    ],
    ['https://www.amazon.de/gp/bestsellers/kitchen/3167641/', { ok: true, id: '3167641', marketplace: 'amazon.de' }],
    ['www.amazon.co.uk/gp/new-releases/kitchen/10706561?pg=2', { ok: true, id: '10706561', marketplace: 'amazon.co.uk' }],
    ['https://www.amazon.fr/gp/movers-and-shakers/electronics/13910691', { ok: true, id: '13910691', marketplace: 'amazon.fr' }],
    ['https://www.amazon.com/zgbs/electronics/172541?pg=2', { ok: true, id: '172541', marketplace: 'amazon.com' }],
    ['http://127.0.0.1:4010/zgbs/x/42', { ok: true, id: '42' }],
    ['https://www.amazon.com/gp/bestsellers/2619525011/ref=x', { ok: true, id: '2619525011', marketplace: 'amazon.com' }],
  ])('accepts %s', (value, expected) => {
    expect(resolveBestsellersTarget(value, SIMULATOR)).toEqual(expected);
  });

  it.each([
    ['', /empty/],
    ['headphones', /not a browse node id or a best-seller list URL/],
    ['123456789012345678901', /not a browse node id/],
    ['https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/', /names no browse node/],
    ['https://www.amazon.com/dp/B08N5WRWNW', /not a best-seller list/],
    ['https://www.amazon.com/b?node=172541', /not a best-seller list/],
    ['https://evil.example/zgbs/electronics/172541', /not an allowed marketplace/],
    ['https://user:pw@www.amazon.com/zgbs/electronics/172541', /credentials/],
    ['ftp://www.amazon.com/zgbs/electronics/172541', /scheme ftp/],
    ['https://www.amazon.com/zgbs/electronics/172541x', /names no browse node/],
  ])('refuses %s', (value, reason) => {
    const target = resolveBestsellersTarget(value, SIMULATOR);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toMatch(reason);
  });
});

describe('resolveCategoryTarget', () => {
  it.each([
    ['172541', { ok: true, id: '172541' }],
    ['https://www.amazon.com/b?node=172541', { ok: true, id: '172541', marketplace: 'amazon.com' }],
    ['https://www.amazon.com/Headphones/b/?ie=UTF8&node=172541&ref_=nav_cs', { ok: true, id: '172541', marketplace: 'amazon.com' }],
    ['https://www.amazon.de/s?node=3167641', { ok: true, id: '3167641', marketplace: 'amazon.de' }],
    ['https://www.amazon.de/s?rh=n%3A562066%2Cn%3A3167641&dc', { ok: true, id: '3167641', marketplace: 'amazon.de' }],
    ['https://www.amazon.com/s?i=electronics&rh=n:172541,p_85:2470955011', { ok: true, id: '172541', marketplace: 'amazon.com' }],
    ['http://127.0.0.1:4010/s?rh=n:7', { ok: true, id: '7' }],
  ])('accepts %s', (value, expected) => {
    expect(resolveCategoryTarget(value, SIMULATOR)).toEqual(expected);
  });

  it.each([
    ['', /empty/],
    ['electronics', /not a browse node id or a category URL/],
    ['https://www.amazon.com/s?k=headphones', /names no browse node/],
    ['https://www.amazon.com/b?node=abc', /names no browse node/],
    ['https://www.amazon.com/dp/B08N5WRWNW?node=172541', /names no browse node/],
    ['https://www.amazon.com/zgbs/electronics/172541', /names no browse node/],
    ['https://amazon.evil.example/b?node=172541', /not an allowed marketplace/],
    ['javascript:alert(1)', /scheme javascript/],
  ])('refuses %s', (value, reason) => {
    const target = resolveCategoryTarget(value, SIMULATOR);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toMatch(reason);
  });
});

describe('resolveAutocompleteTarget', () => {
  it.each([
    ['iph', { ok: true, id: 'iph' }],
    ['  wireless   head ', { ok: true, id: 'wireless head' }],
    ['kopfhörer', { ok: true, id: 'kopfhörer' }],
    ['https://completion.amazon.de/api/2017/suggestions?limit=11&prefix=kaff&mid=A1PA6795UKMFR9', { ok: true, id: 'kaff', marketplace: 'amazon.de' }],
    ['http://127.0.0.1:4010/api/2017/suggestions?prefix=hea', { ok: true, id: 'hea' }],
  ])('accepts %s', (value, expected) => {
    expect(resolveAutocompleteTarget(value, SIMULATOR)).toEqual(expected);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['a\u0000b', /control characters/],
    ['x'.repeat(101), /longer than 100/],
    ['https://www.amazon.com/s?k=iphone', /not an allowed marketplace's suggestion host/],
    ['https://completion.evil.example/api/2017/suggestions?prefix=a', /not an allowed marketplace's suggestion host/],
    ['https://completion.amazon.com/api/2017/suggestions?limit=11', /not a suggestions request/],
    ['https://completion.amazon.com/search/complete?q=a', /not a suggestions request/],
  ])('refuses %s', (value, reason) => {
    const target = resolveAutocompleteTarget(value, SIMULATOR);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toMatch(reason);
  });
});

describe('suggestionsUrl', () => {
  it("asks a storefront's own completion host for its marketplace", () => {
    const url = new URL(suggestionsUrl('https://www.amazon.de', 'amazon.de', 'kaffee m'));
    expect(url.host).toBe('completion.amazon.de');
    expect(url.pathname).toBe('/api/2017/suggestions');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ prefix: 'kaffee m', mid: 'A1PA6795UKMFR9', alias: 'aps', lop: 'de_DE' });
  });

  it('asks any other origin (the simulator) at the same path', () => {
    expect(suggestionsUrl('http://127.0.0.1:4010/', 'amazon.com', 'a b')).toMatch(/^http:\/\/127\.0\.0\.1:4010\/api\/2017\/suggestions\?.*prefix=a\+b/);
  });
});
