import { JWT_AUDIENCE, TOKEN_ISSUER } from '@crawl/contracts';
import type { FastifyRequest } from 'fastify';
import { createSigner } from 'fast-jwt';
import { describe, expect, it, vi } from 'vitest';
import { bearerIdentity } from './bearer-identity.ts';

const SECRET = 'bearer-identity-test-secret-0123456789abcdef';
const resolve = bearerIdentity(SECRET);
const claims = { sub: 'usr_1', org: 'org_1', email: 'a@example.com', role: 'user' };
const sign = (options: Record<string, unknown> = {}, payload: Record<string, unknown> = claims) =>
  createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.api, expiresIn: 60_000, ...options } as never)(payload);
const withBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as FastifyRequest;
/** What `work` threw (it must throw). */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('bearerIdentity', () => {
  it('reads the identity of an access or dashboard token', () => {
    expect(resolve(withBearer(sign()))).toEqual({
      userId: 'usr_1',
      organizationId: 'org_1',
      email: 'a@example.com',
      role: 'user',
      audience: 'api',
    });
    expect(resolve(withBearer(sign({ aud: JWT_AUDIENCE.dashboard }, { ...claims, role: 'admin' })))).toMatchObject({
      audience: 'dashboard',
      role: 'admin',
    });
  });

  it('answers a token it has seen with the same identity, which no request can change for the others', () => {
    const token = sign();
    const first = resolve(withBearer(token));
    expect(resolve(withBearer(token))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(resolve(withBearer(sign({ aud: JWT_AUDIENCE.dashboard })))).toMatchObject({ audience: 'dashboard' });
  });

  it('has no identity without an Authorization header', () => {
    expect(resolve({ headers: {} } as FastifyRequest)).toBeNull();
  });

  it('refuses another issuer, a handoff audience, a token without sub or exp, and tells an expired token apart', () => {
    const noExp = createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.api })(claims);
    const { sub: _sub, ...withoutSub } = claims;
    for (const token of [sign({ iss: 'someone-else' }), sign({ aud: JWT_AUDIENCE.handoff }), sign({}, withoutSub), noExp]) {
      expect(thrownBy(() => resolve(withBearer(token)))).toMatchObject({ statusCode: 401, message: 'Invalid access token' });
    }
    const expired = sign({ clockTimestamp: Date.now() - 120_000 });
    expect(thrownBy(() => resolve(withBearer(expired)))).toMatchObject({ statusCode: 401, message: expect.stringMatching(/expired/) });
  });
});

describe('the verifier at start', () => {
  it('gives no process warning (fast-jwt warns about custom cache keys)', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      bearerIdentity(SECRET);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
