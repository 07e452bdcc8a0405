import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookie-jar.ts';

describe('CookieJar', () => {
  it('round-trips cookies by domain, path, secure flag and expiry', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const jar = new CookieJar(() => now);
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
    now += 61_000;
    expect(jar.header(new URL('https://www.amazon.de/'))).toBe('session-id=1; hostonly=3');
  });

  it('replaces a cookie of the same name and deletes one with an expiry in the past', () => {
    const jar = new CookieJar(() => 0);
    const url = new URL('https://www.amazon.com/');
    jar.store(url, 'a=1; Path=/');
    jar.store(url, 'a=2; Path=/');
    expect(jar.header(url)).toBe('a=2');
    jar.store(url, 'a=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(jar.header(url)).toBeUndefined();
    expect(jar.size).toBe(0);
  });
});
