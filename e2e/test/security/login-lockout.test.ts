import { AUTH_IP_EMAIL_LIMIT, AUTH_IP_LIMIT } from '@crawl/contracts';
import { startTestService, TEST_PASSWORD, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue: ten bad logins per minute for an email locked its owner out (429 for the right password too).
describe('login throttles cannot lock a user out', () => {
  let svc: TestService;
  let victim: TestUser;
  beforeAll(async () => {
    // The default login throttles (auth-ip, auth-ip-email) apply.
    svc = await startTestService({ env: { RATE_LIMIT_OVERRIDES: 'register-ip=100000' } });
    victim = await svc.registerUser();
  });
  afterAll(async () => svc?.close());

  const login = async (remoteAddress: string, email: string, password: string) => {
    const res = await svc.app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } });
    return { status: res.statusCode, retryAfter: Number(res.headers['retry-after']), body: res.json() };
  };

  it('slows the attacker with growing waits while the owner logs in from another address', async () => {
    expect(AUTH_IP_EMAIL_LIMIT).toMatchObject({ max: 10, timeWindowMs: 60_000, key: 'ip+email', backoff: true });
    const attacker = '10.66.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await login(attacker, victim.email, 'wrong-password-123')).status);
    expect(statuses.every((status) => status === 401)).toBe(true);
    const first = await login(attacker, victim.email, 'wrong-password-123');
    const second = await login(attacker, victim.email, 'wrong-password-123');
    expect([first.status, second.status]).toEqual([429, 429]);
    expect(first.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', details: [] } });
    expect(first.retryAfter).toBeGreaterThan(0);
    expect(second.retryAfter).toBeGreaterThan(first.retryAfter);

    // The owner, elsewhere, with the right password: not affected by the attacker's failures.
    const owner = await login('10.1.2.3', victim.email, victim.password);
    expect(owner.status).toBe(200);
    expect(owner.body.accessToken).toEqual(expect.any(String));
    // The attacker's address gets nowhere with this email, whatever the password.
    expect((await login(attacker, victim.email, TEST_PASSWORD)).status).toBe(429);
  });

  it('caps one address across many emails (auth-ip)', async () => {
    expect(AUTH_IP_LIMIT).toMatchObject({ max: 30, timeWindowMs: 60_000, key: 'ip' });
    const sprayer = '10.66.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await login(sprayer, `spray-${i}@example.com`, 'wrong-password-123')).status);
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await login('10.66.0.3', victim.email, victim.password)).status).toBe(200);
  });
});
