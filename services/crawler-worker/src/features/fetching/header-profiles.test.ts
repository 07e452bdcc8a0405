import { describe, expect, it } from 'vitest';
import { acceptLanguage, navigationHeaders, type HeaderProfile } from './header-profiles.ts';

const chrome: HeaderProfile = {
  headers: {
    'sec-ch-ua': '"Google Chrome";v="147", "Not.A/Brand";v="8", "Chromium";v="147"',
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36',
    accept: 'text/html,*/*;q=0.8',
    'sec-fetch-site': 'same-site',
    'sec-fetch-mode': 'navigate',
    'accept-encoding': 'gzip, deflate, br, zstd',
    'accept-language': 'en-US',
  },
  order: ['sec-ch-ua', 'user-agent', 'accept', 'sec-fetch-site', 'sec-fetch-mode', 'referer', 'accept-encoding', 'accept-language', 'cookie'],
};
const safari: HeaderProfile = {
  headers: {
    accept: 'text/html,*/*;q=0.8',
    'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.3 Safari/605.1.15',
  },
  order: ['referer', 'accept', 'user-agent', 'accept-encoding', 'accept-language', 'cookie'],
};

describe('navigationHeaders', () => {
  it("sends the profile's headers in its browser's order, with the request's own values", () => {
    const headers = navigationHeaders({
      profile: chrome,
      lang: 'de-DE',
      acceptEncoding: 'gzip, deflate, br',
      referer: 'https://www.amazon.de/s?k=a',
      cookie: 'session-id=1',
    });
    expect(Object.keys(headers)).toEqual([
      'sec-ch-ua',
      'user-agent',
      'accept',
      'sec-fetch-site',
      'sec-fetch-mode',
      'referer',
      'accept-encoding',
      'accept-language',
      'cookie',
    ]);
    expect(headers).toMatchObject({
      'user-agent': chrome.headers['user-agent'],
      'sec-fetch-site': 'same-origin',
      referer: 'https://www.amazon.de/s?k=a',
      'accept-encoding': 'gzip, deflate, br',
      'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
      cookie: 'session-id=1',
    });
  });

  it('marks a first navigation as typed in (no referer, no cookie) and leaves the profile as it was', () => {
    const headers = navigationHeaders({ profile: chrome, lang: undefined, acceptEncoding: 'gzip' });
    expect(headers['sec-fetch-site']).toBe('none');
    expect(headers).not.toHaveProperty('referer');
    expect(headers).not.toHaveProperty('cookie');
    expect(chrome.headers['sec-fetch-site']).toBe('same-site');
  });

  it('adds no fetch metadata or client hints to a browser that sends none', () => {
    const headers = navigationHeaders({ profile: safari, lang: 'en-GB', acceptEncoding: 'gzip', referer: 'https://www.amazon.co.uk/' });
    expect(Object.keys(headers)).toEqual(['referer', 'accept', 'user-agent', 'accept-encoding', 'accept-language']);
    expect(headers['accept-language']).toBe('en-GB,en;q=0.9');
  });
});

describe('acceptLanguage', () => {
  it.each([
    ['de-DE', 'de-DE,de;q=0.9,en;q=0.8'],
    ['en-US', 'en-US,en;q=0.9'],
    ['fr', 'fr,en;q=0.8'],
    [undefined, 'en-US,en;q=0.9'],
    ['x; evil', 'en-US,en;q=0.9'],
  ])('%s → %s', (lang, expected) => {
    expect(acceptLanguage(lang)).toBe(expected);
  });
});
