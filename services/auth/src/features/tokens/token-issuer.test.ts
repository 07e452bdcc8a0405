import { ACCESS_TOKEN_TTL_SECONDS, HANDOFF_TOKEN_TTL_SECONDS, JWT_AUDIENCE, TOKEN_ISSUER } from '@crawl/contracts';
import { createDecoder, createSigner } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { TokenIssuer } from './token-issuer.ts';

const SECRET = 'token-issuer-test-secret-0123456789abcdef';
const issuer = new TokenIssuer(SECRET, 3600);
const subject = { userId: 'usr_1', organizationId: 'org_1', email: 'a@example.com', role: 'user' as const };
const decodeComplete = createDecoder({ complete: true });

describe('TokenIssuer', () => {
  it('signs HS256 tokens with exp, issuer and one audience per kind', () => {
    const cases = [
      [issuer.access(subject), JWT_AUDIENCE.api, ACCESS_TOKEN_TTL_SECONDS],
      [issuer.access(subject, 'dashboard'), JWT_AUDIENCE.dashboard, 3600],
      [issuer.handoff(subject), JWT_AUDIENCE.handoff, HANDOFF_TOKEN_TTL_SECONDS],
    ] as const;
    for (const [{ token, expiresIn }, audience, ttl] of cases) {
      const { header, payload } = decodeComplete(token) as { header: Record<string, unknown>; payload: Record<string, number | string> };
      expect(header.alg).toBe('HS256');
      expect(payload).toMatchObject({ iss: TOKEN_ISSUER, aud: audience, sub: 'usr_1', org: 'org_1', email: 'a@example.com', role: 'user' });
      expect(expiresIn).toBe(ttl);
      expect(Number(payload.exp) - Number(payload.iat)).toBe(ttl);
    }
  });

  it('reads back its own handoff tokens only', () => {
    const handoff = issuer.handoff(subject).token;
    expect(issuer.readHandoff(handoff)).toEqual({ ...subject, jti: expect.any(String) });
    const sign = (options: Record<string, unknown>) =>
      createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.handoff, expiresIn: 60_000, sub: 'usr_1', ...options } as never)({
        org: 'org_1',
        email: 'a@example.com',
        jti: 'j1',
      });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${handoff.split('.')[1]}.`;
    const refused = [
      issuer.access(subject).token, // another audience
      new TokenIssuer('another-secret-0123456789abcdef-0123456789', 3600).handoff(subject).token,
      sign({ algorithm: 'HS512' }),
      sign({ iss: 'someone-else' }),
      sign({ clockTimestamp: Date.now() - 120_000 }),
      createSigner({ key: SECRET, algorithm: 'HS256', iss: TOKEN_ISSUER, aud: JWT_AUDIENCE.handoff, sub: 'usr_1' })({
        org: 'org_1',
        email: 'a@example.com',
        jti: 'j1',
      }), // no exp
      none,
      'not-a-jwt',
    ];
    for (const token of refused) expect(issuer.readHandoff(token), token).toBeNull();
    expect(issuer.readHandoff(sign({}))).toMatchObject({ userId: 'usr_1', jti: 'j1' });
  });
});
