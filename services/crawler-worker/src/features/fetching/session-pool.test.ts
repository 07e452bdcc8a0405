import { describe, expect, it } from 'vitest';
import { ProxyPool } from './proxy-pool.ts';
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
