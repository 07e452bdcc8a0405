import type { Identity } from '@crawl/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalTokens } from './internal-tokens.ts';

const alice: Identity = { userId: 'usr_a', organizationId: 'org_a', email: 'a@example.com', role: 'user', audience: 'api' };

describe('signed identities', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reuses one token per identity for half its lifetime, then signs a new one', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const tokens = new InternalTokens('internal-tokens-test-secret-long-enough-0123');
    const first = tokens.signIdentity(alice);
    expect(tokens.signIdentity({ ...alice })).toBe(first);
    expect(tokens.verifyIdentity(first)).toEqual(alice);
    vi.advanceTimersByTime(31_000);
    const later = tokens.signIdentity(alice);
    expect(later).not.toBe(first);
    expect(tokens.verifyIdentity(later)).toEqual(alice);
  });

  it('never hands one caller another caller’s token', () => {
    const tokens = new InternalTokens('internal-tokens-test-secret-long-enough-0123');
    const variants: Identity[] = [
      { ...alice, userId: 'usr_b' },
      { ...alice, organizationId: 'org_b' },
      { ...alice, email: 'b@example.com' },
      { ...alice, role: 'admin' },
      { ...alice, audience: 'dashboard' },
    ];
    tokens.signIdentity(alice);
    for (const identity of variants) expect(tokens.verifyIdentity(tokens.signIdentity(identity))).toEqual(identity);
    expect(tokens.verifyIdentity(tokens.signIdentity(alice))).toEqual(alice);
  });
});

describe('the verifier at start', () => {
  it('gives no process warning (fast-jwt warns about custom cache keys)', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      new InternalTokens('internal-tokens-test-secret-long-enough-0123');
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
