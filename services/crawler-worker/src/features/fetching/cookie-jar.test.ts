import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CookieJar } from './cookie-jar.ts';

describe('CookieJar', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('round-trips cookies by domain, path, secure flag and expiry', () => {
    const jar = new CookieJar();
    jar.store(new URL('https://www.amazon.de/s?k=x'), [
      'session-id=1; Domain=.amazon.de; Path=/; Secure',
      'ubid=2; Domain=amazon.de; Path=/; Max-Age=60',
      'i18n=de; Path=/gp',
      'hostonly=3',
      'evil=1; Domain=example.com',
    ]);
    expect(jar.header(new URL('https://www.amazon.de/dp/B000000001'))).toBe('session-id=1; ubid=2; hostonly=3');
    expect(jar.header(new URL('https://smile.amazon.de/gp/cart'))).toBe('session-id=1; ubid=2');
    expect(jar.header(new URL('https://www.amazon.de/gp/cart'))).toBe('i18n=de; session-id=1; ubid=2; hostonly=3');
    expect(jar.header(new URL('http://www.amazon.de/'))).toBe('ubid=2; hostonly=3');
    expect(jar.header(new URL('https://www.example.com/'))).toBeUndefined();
    vi.advanceTimersByTime(61_000);
    expect(jar.header(new URL('https://www.amazon.de/'))).toBe('session-id=1; hostonly=3');
  });

  it('replaces a cookie of the same name and deletes one with an expiry in the past', () => {
    const jar = new CookieJar();
    const url = new URL('https://www.amazon.com/');
    jar.store(url, 'a=1; Path=/');
    jar.store(url, 'a=2; Path=/');
    expect(jar.header(url)).toBe('a=2');
    jar.store(url, 'a=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(jar.header(url)).toBeUndefined();
  });

  it('counts Max-Age from when the cookie arrived, however often it is sent back', () => {
    const jar = new CookieJar();
    const url = new URL('https://www.amazon.com/');
    jar.store(url, 'short=1; Path=/; Max-Age=10');
    for (let second = 0; second < 9; second += 1) {
      expect(jar.header(url)).toBe('short=1');
      vi.advanceTimersByTime(1_000);
    }
    vi.advanceTimersByTime(1_000);
    expect(jar.header(url)).toBeUndefined();
    jar.store(url, ['now=1; Path=/', 'gone=1; Path=/; Max-Age=0']);
    expect(jar.header(url)).toBe('now=1');
  });

  it('refuses a cookie for a public suffix, which every other site under it would receive', () => {
    const jar = new CookieJar();
    jar.store(new URL('https://www.amazon.co.uk/'), ['tracker=1; Domain=co.uk; Path=/', 'wide=1; Domain=.uk; Path=/', 'site=1; Domain=amazon.co.uk; Path=/']);
    expect(jar.header(new URL('https://www.other-shop.co.uk/'))).toBeUndefined();
    expect(jar.header(new URL('https://www.amazon.co.uk/'))).toBe('site=1');
    jar.store(new URL('https://www.amazon.com.au/'), 'tracker=1; Domain=com.au; Path=/');
    expect(jar.header(new URL('https://shop.com.au/'))).toBeUndefined();
  });

  it('ignores lines that are not cookies instead of failing the page', () => {
    const jar = new CookieJar();
    const url = new URL('https://www.amazon.com/');
    expect(() => jar.store(url, ['', '=novalue', ';;;', 'ok=1'])).not.toThrow();
    expect(jar.header(url)).toBe('ok=1');
  });
});
