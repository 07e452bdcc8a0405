import { describe, expect, it } from 'vitest';
import { ProxyPool } from '../egress/index.ts';
import { SessionPool } from './session-pool.ts';

const pool = (size: number) => new SessionPool({ proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 1000, now: () => 0 }), maxUses: 100, size });

describe('SessionPool delivery locations', () => {
  it('reserves a session for one location and reuses it only for that location', () => {
    const sessions = pool(4);
    const a = sessions.take('de|10115');
    expect(a.location).toBe('de|10115');
    expect(sessions.take('de|10115')).toBe(a);
    const b = sessions.take('de|80331');
    expect(b).not.toBe(a);
    const plain = sessions.take();
    expect([a, b]).not.toContain(plain);
    expect(plain.location).toBeUndefined();
  });

  it('makes room on a full pool by retiring the oldest session of another location', () => {
    const sessions = pool(2);
    const first = sessions.take();
    const second = sessions.take();
    const located = sessions.take('com|10001');
    expect(first.retired).toBe(true);
    expect(second.retired).toBe(false);
    expect(sessions.take('com|10001')).toBe(located);
    // Plain targets keep to the plain session left.
    expect(sessions.take()).toBe(second);
  });
});

describe('SessionPool', () => {
  it('retires a blocked session (striking its proxy) and a worn-out one', () => {
    const proxies = new ProxyPool({ urls: ['http://p1:1', 'http://p2:1'], restAfterBlocks: 1, restMs: 60_000, now: () => 0 });
    const sessions = new SessionPool({ proxies, maxUses: 2, size: 1 });
    const first = sessions.take();
    expect(first.proxy).toBe('http://p1:1');
    expect(sessions.take()).toBe(first);
    sessions.blocked(first);
    const second = sessions.take();
    expect(second).not.toBe(first);
    expect(second.proxy).toBe('http://p2:1');
    expect(proxies.snapshot()[0]?.resting).toBe(true);
    sessions.used(second);
    sessions.used(second);
    expect(sessions.take()).not.toBe(second);
  });
});
