import { registerAdmin, startTestService, TEST_PASSWORD, type TestService } from '@crawl/server/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

function claims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
}
function header(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8'));
}

describe('auth routes through the gateway', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_EMAILS: 'Boss@Example.com' } });
  });
  afterAll(async () => svc.close());

  describe('POST /auth/register', () => {
    it('creates a user and answers 201 with the token and user at top level and under data', async () => {
      const res = await svc.request({ method: 'POST', url: '/auth/register', body: { email: 'Ada@Example.com', password: TEST_PASSWORD, name: 'Ada' } });
      expect(res.status).toBe(201);
      expect(res.body.user).toEqual({ id: expect.any(String), email: 'ada@example.com', name: 'Ada' });
      expect(res.body.data.user).toEqual(res.body.user);
      expect(res.body.data.accessToken).toBe(res.body.accessToken);
      expect(res.body.user.passwordHash).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain('argon2');
      const c = claims(res.body.accessToken);
      expect(header(res.body.accessToken).alg).toBe('HS256');
      expect(c.exp - c.iat).toBe(7 * 24 * 3600);
      expect(c).toMatchObject({ iss: 'crawl-data-service', aud: 'crawl-api', sub: res.body.user.id, role: 'user' });
      expect(c.org).toMatch(/^org_/);
    });

    it('rejects the same email in another case with 409 CONFLICT', async () => {
      await svc.registerUser({ email: 'grace@example.com' });
      const res = await svc.request({ method: 'POST', url: '/auth/register', body: { email: 'GRACE@example.COM', password: TEST_PASSWORD } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'CONFLICT', message: 'Email already registered', details: [{ reason: 'EMAIL_ALREADY_EXISTS' }] },
      });
    });

    it.each([
      ['a missing email', { password: TEST_PASSWORD }, 'email is required'],
      ['an invalid email', { email: 'not-an-email', password: TEST_PASSWORD }, 'email must be a valid email'],
      ['an operator object as email', { email: { $ne: null }, password: TEST_PASSWORD }, 'email must be a string'],
      ['a number where a string belongs (bodies are never coerced)', { email: 'num@example.com', password: TEST_PASSWORD, name: 42 }, 'name must be a string'],
      ['an array as password', { email: 'arr@example.com', password: [TEST_PASSWORD] }, 'password must be a string'],
      ['a short password', { email: 'short@example.com', password: 'abc' }, 'password must be at least 8 characters long'],
      ['a common password', { email: 'common@example.com', password: 'password123' }, 'password is too common'],
      ['the email as password', { email: 'samesame@example.com', password: 'samesame@example.com' }, 'password must not be your email address'],
      ['an unknown field', { email: 'extra@example.com', password: TEST_PASSWORD, role: 'admin' }, 'role is not an allowed property'],
      ['an oversized name', { email: 'long@example.com', password: TEST_PASSWORD, name: 'x'.repeat(500) }, 'name must be at most 120 characters long'],
    ])('rejects %s with 400 VALIDATION_ERROR', async (_label, body, message) => {
      const res = await svc.request({ method: 'POST', url: '/auth/register', body });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toBe(message);
      expect(Array.isArray(res.body.error.details)).toBe(true);
    });
  });

  describe('POST /auth/login', () => {
    it('answers 200 with the same shape, and the token opens protected routes', async () => {
      const user = await svc.registerUser({ name: 'Lin' });
      const res = await svc.request({ method: 'POST', url: '/auth/login', body: { email: user.email.toUpperCase(), password: user.password } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.userId, email: user.email, name: 'Lin' });
      expect(res.body.data.accessToken).toBe(res.body.accessToken);
      const me = await svc.request({ method: 'GET', url: '/auth/me', token: res.body.accessToken });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ user: { id: user.userId }, organizationId: user.organizationId, role: 'user' });
    });

    it('answers an unknown email and a wrong password with the identical 401 INVALID_CREDENTIALS', async () => {
      const user = await svc.registerUser();
      const wrong = await svc.request({ method: 'POST', url: '/auth/login', body: { email: user.email, password: 'wrong-password-1' } });
      const unknown = await svc.request({ method: 'POST', url: '/auth/login', body: { email: 'nobody@example.com', password: 'wrong-password-1' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password', details: [] } });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
    });

    it('gives no admin role for registering an address listed in ADMIN_EMAILS (only the operator command grants it)', async () => {
      const boss = await svc.registerUser({ email: 'boss@example.com' });
      expect(claims(boss.token).role).toBe('user');
      const me = await svc.request({ method: 'GET', url: '/auth/me', token: boss.token });
      expect(me.body.data.role).toBe('user');
      const admin = await registerAdmin(svc);
      expect(claims(admin.token).role).toBe('admin');
    });
  });

  describe('handoff', () => {
    it('exchanges email and password for a 5-minute handoff token, then for an access token, once', async () => {
      const user = await svc.registerUser();
      const handoff = await svc.request({ method: 'POST', url: '/auth/login-handoff', body: { email: user.email, password: user.password } });
      expect(handoff.status).toBe(200);
      expect(handoff.body.user.id).toBe(user.userId);
      const hc = claims(handoff.body.handoffToken);
      expect(hc.exp - hc.iat).toBe(300);
      expect(hc.aud).toBe('crawl-handoff');

      const verified = await svc.request({ method: 'POST', url: '/auth/verify-handoff', body: { handoffToken: handoff.body.handoffToken } });
      expect(verified.status).toBe(200);
      expect(verified.body.user.id).toBe(user.userId);
      expect(claims(verified.body.accessToken).aud).toBe('crawl-api');
      expect((await svc.request({ method: 'GET', url: '/auth/me', token: verified.body.accessToken })).status).toBe(200);

      const again = await svc.request({ method: 'POST', url: '/auth/verify-handoff', body: { handoffToken: handoff.body.handoffToken } });
      expect(again.status).toBe(401);
      expect(again.body.error.code).toBe('UNAUTHORIZED');
    });

    it('keeps the token kinds apart: a handoff token is no access token and vice versa', async () => {
      const user = await svc.registerUser();
      const handoff = await svc.request({ method: 'POST', url: '/auth/login-handoff', body: { email: user.email, password: user.password } });
      const asBearer = await svc.request({ method: 'GET', url: '/auth/me', token: handoff.body.handoffToken });
      expect(asBearer.status).toBe(401);
      const asHandoff = await svc.request({ method: 'POST', url: '/auth/verify-handoff', body: { handoffToken: user.token } });
      expect(asHandoff.status).toBe(401);
      expect(asHandoff.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    });

    it('rejects an expired handoff token and garbage with 401', async () => {
      const user = await svc.registerUser();
      const expired = createSigner({
        key: SECRET,
        algorithm: 'HS256',
        iss: 'crawl-data-service',
        aud: 'crawl-handoff',
        expiresIn: 300_000,
        clockTimestamp: Date.now() - 600_000,
      })({
        sub: user.userId,
        org: user.organizationId,
        email: user.email,
        role: 'user',
        jti: 'expired-one',
      });
      for (const handoffToken of [expired, 'not-a-jwt', 'a.b.c']) {
        const res = await svc.request({ method: 'POST', url: '/auth/verify-handoff', body: { handoffToken } });
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    });

    it('issues a dashboard token on request', async () => {
      const user = await svc.registerUser();
      const token = await svc.dashboardToken(user);
      expect(claims(token).aud).toBe('crawl-dashboard');
      expect((await svc.request({ method: 'GET', url: '/auth/me', token })).status).toBe(200);
    });
  });

  describe('POST /auth/logout', () => {
    it('answers 204 with no body, with or without a token, even a bad one', async () => {
      const user = await svc.registerUser();
      for (const token of [undefined, user.token, 'garbage']) {
        const res = await svc.request({ method: 'POST', url: '/auth/logout', ...(token ? { token } : {}), headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
      }
    });
  });
});

describe('auth throttles', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_OVERRIDES: 'auth-ip=6,auth-ip-email=3,register-ip=100000' } });
  });
  afterAll(async () => svc.close());

  it('limits attempts per address and email, then per address, with 429 RATE_LIMIT_EXCEEDED and Retry-After', async () => {
    const attempt = (email: string) => svc.request({ method: 'POST', url: '/auth/login', body: { email, password: 'wrong-password-1' } });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await attempt('victim@example.com')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attempt('victim@example.com');
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other emails from the same address pass until the per-address budget (6) is spent.
    expect((await attempt('other@example.com')).status).toBe(401);
    const blocked = await attempt('third@example.com');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});
