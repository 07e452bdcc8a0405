import { describe, expect, it } from 'vitest';
import { productUrl, resolveMarketplace, searchUrl } from './marketplace-origin.ts';

describe('resolveMarketplace', () => {
  it('uses the base storefront, or the storefront config.domain picks', () => {
    expect(resolveMarketplace('https://www.amazon.com', {})).toEqual({ ok: true, origin: 'https://www.amazon.com', domain: 'amazon.com', query: {} });
    expect(resolveMarketplace('https://www.amazon.com', { domain: 'amazon.de' })).toMatchObject({
      ok: true,
      origin: 'https://www.amazon.de',
      domain: 'amazon.de',
    });
    expect(resolveMarketplace('https://www.amazon.com', { domain: 'www.Amazon.co.jp' })).toMatchObject({ ok: true, origin: 'https://www.amazon.co.jp' });
  });

  it('keeps a non-storefront base (the simulator) and passes the domain along', () => {
    expect(resolveMarketplace('http://127.0.0.1:4010', { domain: 'amazon.fr' })).toEqual({
      ok: true,
      origin: 'http://127.0.0.1:4010',
      domain: 'amazon.fr',
      query: { domain: 'amazon.fr' },
    });
    expect(resolveMarketplace('http://127.0.0.1:4010', {})).toEqual({ ok: true, origin: 'http://127.0.0.1:4010', domain: undefined, query: {} });
  });

  it('rejects a domain that is not a marketplace', () => {
    for (const domain of ['evil.com', 'amazon.com.evil.net']) expect(resolveMarketplace('https://www.amazon.com', { domain })).toMatchObject({ ok: false });
    // A task stored before its config was checked may still hold anything.
    expect(resolveMarketplace('https://www.amazon.com', { domain: 42 as unknown as string })).toMatchObject({ ok: false });
  });
});

describe('page URLs', () => {
  const store = { origin: 'https://www.amazon.com', domain: 'amazon.com', query: {} };
  it('builds search and product URLs', () => {
    expect(searchUrl(store, 'wireless headphones & more', 1)).toBe('https://www.amazon.com/s?k=wireless+headphones+%26+more');
    expect(searchUrl(store, 'tv', 3)).toBe('https://www.amazon.com/s?k=tv&page=3');
    expect(productUrl(store, 'B000000001')).toBe('https://www.amazon.com/dp/B000000001');
    expect(productUrl({ origin: 'http://127.0.0.1:1', domain: 'amazon.de', query: { domain: 'amazon.de' } }, 'B000000001')).toBe(
      'http://127.0.0.1:1/dp/B000000001?domain=amazon.de',
    );
  });
});
