import { describe, expect, it } from 'vitest';
import { oncePerClaims } from './once-per-claims.ts';

describe('oncePerClaims', () => {
  it('derives once per claims object, a null result included, and again for another object', () => {
    let runs = 0;
    const derive = oncePerClaims((claims: { sub?: string }) => {
      runs += 1;
      return claims.sub ?? null;
    });
    const cached = { sub: 'u1' };
    expect(derive(cached)).toBe('u1');
    expect(derive(cached)).toBe('u1');
    const empty = {};
    expect(derive(empty)).toBeNull();
    expect(derive(empty)).toBeNull();
    expect(runs).toBe(2);
    // Equal claims in another object (another token, or the cache evicted it): derived anew.
    expect(derive({ sub: 'u1' })).toBe('u1');
    expect(runs).toBe(3);
  });

  it('does not keep a failure: a claims object that throws throws again', () => {
    let runs = 0;
    const derive = oncePerClaims(() => {
      runs += 1;
      throw new Error('bad claims');
    });
    const claims = {};
    expect(() => derive(claims)).toThrow('bad claims');
    expect(() => derive(claims)).toThrow('bad claims');
    expect(runs).toBe(2);
  });
});
