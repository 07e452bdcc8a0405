import { describe, expect, it } from 'vitest';
import { ProxyPool, redactProxy } from './proxy-pool.ts';

describe('ProxyPool', () => {
  const urls = ['http://p1:8080', 'http://p2:8080', 'https://user:secret@p3:8443'];

  it('rotates round robin and goes direct when no proxy is configured', () => {
    const pool = new ProxyPool({ urls, restAfterBlocks: 2, restMs: 1000, now: () => 0 });
    expect([pool.next(), pool.next(), pool.next(), pool.next()]).toEqual([urls[0], urls[1], urls[2], urls[0]]);
    expect(new ProxyPool({ urls: [], restAfterBlocks: 1, restMs: 1 }).next()).toBeUndefined();
  });

  it('rests a proxy after consecutive blocks; a success in between resets the count', () => {
    let now = 0;
    const pool = new ProxyPool({ urls, restAfterBlocks: 2, restMs: 1000, now: () => now });
    pool.reportBlocked(urls[0] as string);
    pool.reportSuccess(urls[0] as string);
    pool.reportBlocked(urls[0] as string);
    expect(pool.snapshot()[0]).toMatchObject({ resting: false, consecutiveBlocks: 1 });
    pool.reportBlocked(urls[0] as string);
    expect(pool.snapshot()[0]).toMatchObject({ resting: true });
    const picks = Array.from({ length: 4 }, () => pool.next());
    expect(picks).not.toContain(urls[0]);
    now = 1000;
    expect(Array.from({ length: 3 }, () => pool.next())).toContain(urls[0]);
  });

  it('uses the proxy back soonest when all rest, never a direct connection', () => {
    let now = 0;
    const pool = new ProxyPool({ urls: urls.slice(0, 2), restAfterBlocks: 1, restMs: 1000, now: () => now });
    pool.reportBlocked(urls[0] as string);
    now = 500;
    pool.reportBlocked(urls[1] as string);
    expect(pool.next()).toBe(urls[0]);
  });

  it('rejects non-http proxies and keeps credentials out of snapshots', () => {
    expect(() => new ProxyPool({ urls: ['socks5://p:1080'], restAfterBlocks: 1, restMs: 1 })).toThrow(/only http/);
    expect(redactProxy('https://user:secret@p3:8443')).toBe('https://***@p3:8443');
    expect(JSON.stringify(new ProxyPool({ urls, restAfterBlocks: 1, restMs: 1 }).snapshot())).not.toContain('secret');
  });
});
