import { startTestService, type TestService } from '@crawl/server/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const sign = (options: Record<string, unknown>, payload: Record<string, unknown>) =>
  createSigner({ key: SECRET, algorithm: 'HS256', iss: 'crawl-data-service', aud: 'crawl-api', expiresIn: 60_000, ...options } as never)(payload);

function expectEnvelope(res: { status: number; body: any; text: string }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String), details: expect.any(Array) } });
  expect(res.text).not.toMatch(/\n\s+at /);
}

describe('gateway', () => {
  let svc: TestService;
  let user: Awaited<ReturnType<TestService['registerUser']>>;
  beforeAll(async () => {
    svc = await startTestService({ env: { BODY_LIMIT_BYTES: '2048' } });
    user = await svc.registerUser();
  });
  afterAll(async () => svc.close());

  describe('bearer tokens on protected routes', () => {
    const me = (headers: Record<string, string>) => svc.request({ method: 'GET', url: '/auth/me', headers });

    it('accepts a valid token', async () => {
      expect((await me({ authorization: `Bearer ${user.token}` })).status).toBe(200);
    });

    it.each([
      ['missing', {}],
      ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['malformed', { authorization: 'Bearer not.a.jwt!' }],
      ['empty bearer', { authorization: 'Bearer ' }],
    ])('answers a %s header with 401 UNAUTHORIZED', async (_label, headers) => {
      expectEnvelope(await me(headers as Record<string, string>), 401, 'UNAUTHORIZED');
    });

    it('rejects a tampered token', async () => {
      const [h, p, s] = user.token.split('.') as [string, string, string];
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      payload.org = 'org_someone_else';
      const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
      expectEnvelope(await me({ authorization: `Bearer ${forged}` }), 401, 'UNAUTHORIZED');
    });

    it('rejects an expired token, a token without exp, another secret, another audience and alg none', async () => {
      const claims = { sub: user.userId, org: user.organizationId, email: user.email, role: 'user' };
      const expired = sign({ clockTimestamp: Date.now() - 120_000 }, claims);
      const noExp = createSigner({ key: SECRET, algorithm: 'HS256', iss: 'crawl-data-service', aud: 'crawl-api' })(claims);
      const otherSecret = createSigner({
        key: 'another-secret-that-is-also-long-enough-0123',
        algorithm: 'HS256',
        iss: 'crawl-data-service',
        aud: 'crawl-api',
        expiresIn: 60_000,
      })(claims);
      const otherAudience = sign({ aud: 'crawl-handoff' }, claims);
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, iss: 'crawl-data-service', aud: 'crawl-api', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url')}.`;
      const hs512 = createSigner({ key: SECRET, algorithm: 'HS512', iss: 'crawl-data-service', aud: 'crawl-api', expiresIn: 60_000 })(claims);
      for (const token of [expired, noExp, otherSecret, otherAudience, none, hs512]) {
        expectEnvelope(await me({ authorization: `Bearer ${token}` }), 401, 'UNAUTHORIZED');
      }
      expect((await me({ authorization: `Bearer ${expired}` })).body.error.message).toMatch(/expired/);
    });

    it('does not trust identity or service headers a client makes up', async () => {
      const forgedIdentity = createSigner({
        key: 'guessed-internal-secret-0123456789abcdef',
        algorithm: 'HS256',
        aud: 'crawl-internal',
        iss: 'crawl-data-service',
        expiresIn: 60_000,
      })({
        kind: 'identity',
        identity: { userId: 'u', organizationId: 'o', email: 'e@x.io', role: 'admin', audience: 'api' },
      });
      expectEnvelope(await me({ 'x-crawl-identity': forgedIdentity }), 401, 'UNAUTHORIZED');
      expectEnvelope(await me({ 'x-crawl-identity': 'junk' }), 401, 'UNAUTHORIZED');
      const internal = await svc.request({
        method: 'POST',
        url: '/internal/billing/accounts',
        headers: { 'x-internal-token': 'junk' },
        body: { organizationId: 'o', ownerUserId: 'u' },
      });
      expectEnvelope(internal, 401, 'UNAUTHORIZED');
    });
  });

  describe('errors always use the envelope', () => {
    it('answers unknown routes with 404 NOT_FOUND', async () => {
      expectEnvelope(await svc.request({ method: 'GET', url: '/nope' }), 404, 'NOT_FOUND');
      expectEnvelope(await svc.request({ method: 'DELETE', url: '/auth/login' }), 404, 'NOT_FOUND');
    });

    it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
      const res = await svc.request({ method: 'POST', url: '/auth/login', payload: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toBe('Request body is not valid JSON');
    });

    it('answers prototype pollution attempts with 400', async () => {
      const res = await svc.request({
        method: 'POST',
        url: '/auth/login',
        payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}',
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
    });

    it('answers an oversized body with 413', async () => {
      const res = await svc.request({ method: 'POST', url: '/auth/login', body: { email: 'a@b.c', password: 'x'.repeat(5000) } });
      expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('answers a wrong content type with 415', async () => {
      const res = await svc.request({
        method: 'POST',
        url: '/auth/login',
        payload: 'email=a',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers a missing body with 400', async () => {
      expectEnvelope(await svc.request({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');
    });

    it('echoes a request id, or makes one', async () => {
      const given = await svc.request({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-123' } });
      expect(given.headers['x-request-id']).toBe('trace-123');
      const made = await svc.request({ method: 'GET', url: '/health' });
      expect(String(made.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('GET /health', () => {
    it('reports the api indicator and leaves mongo out when no database is configured', async () => {
      const res = await svc.request({ method: 'GET', url: '/health' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', info: { api: { status: 'up' } }, error: {}, details: { api: { status: 'up' } } });
    });
  });

  describe('OpenAPI', () => {
    it('serves the document from the route schemas, without internal routes', async () => {
      const res = await svc.request({ method: 'GET', url: '/openapi.json' });
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      const paths = Object.keys(res.body.paths);
      expect(paths).toEqual(expect.arrayContaining(['/auth/register', '/auth/login', '/auth/login-handoff', '/auth/verify-handoff', '/auth/logout']));
      expect(paths.some((p) => p.startsWith('/internal'))).toBe(false);
      expect(res.body.paths['/auth/register'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
      expect(res.body.paths['/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    });

    it('serves a browsable UI at /docs', async () => {
      const res = await svc.request({ method: 'GET', url: '/docs/' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('swagger');
    });
  });
});
