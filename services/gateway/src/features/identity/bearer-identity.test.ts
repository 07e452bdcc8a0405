import { JWT_AUDIENCE, TOKEN_ISSUER } from '@crawl/contracts';
import type { FastifyRequest } from 'fastify';
import { createSigner } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { bearerIdentity } from './bearer-identity.ts';

const SECRET = 'bearer-identity-test-secret-0123456789abcdef';
const resolve = bearerIdentity(SECRET);
const claims = { sub: 'usr_1', org: 'org_1', email: 'a@example.com', role: 'user' };
const sign = (options: Record<string, unknown> = {}, payload: Record<string, unknown> = claims) =>
  createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.api, expiresIn: 60_000, ...options } as never)(payload);
const withBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as FastifyRequest;

describe('bearerIdentity', () => {
  it('reads the identity of an access or dashboard token', async () => {
    await expect(resolve(withBearer(sign()))).resolves.toEqual({
      userId: 'usr_1',
      organizationId: 'org_1',
      email: 'a@example.com',
      role: 'user',
      audience: 'api',
    });
    await expect(resolve(withBearer(sign({ aud: JWT_AUDIENCE.dashboard }, { ...claims, role: 'admin' })))).resolves.toMatchObject({
      audience: 'dashboard',
      role: 'admin',
    });
  });

  it('has no identity without an Authorization header', async () => {
    await expect(resolve({ headers: {} } as FastifyRequest)).resolves.toBeNull();
  });

  it('refuses another issuer, a handoff audience, a token without sub or exp, and tells an expired token apart', async () => {
    const noExp = createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.api })(claims);
    const { sub: _sub, ...withoutSub } = claims;
    for (const token of [sign({ iss: 'someone-else' }), sign({ aud: JWT_AUDIENCE.handoff }), sign({}, withoutSub), noExp]) {
      await expect(resolve(withBearer(token))).rejects.toMatchObject({ statusCode: 401, message: 'Invalid access token' });
    }
    const expired = sign({ clockTimestamp: Date.now() - 120_000 });
    await expect(resolve(withBearer(expired))).rejects.toMatchObject({ statusCode: 401, message: expect.stringMatching(/expired/) });
  });
});
