import type { Identity } from '@crawl/contracts';
import { IDENTITY_HEADER } from '@crawl/service-client';
import { startTestService, type TestService } from '@crawl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { billingModule } from '../../module.ts';

const NOWHERE = 'http://127.0.0.1:9';
const identity: Identity = { userId: 'usr_ref', organizationId: 'org_ref', email: 'ref@example.com', role: 'user', audience: 'api' };

/** Billing on its own; callers arrive as the gateway forwards them, with a signed identity. */
async function billingAlone(env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({ modules: [billingModule], env: { CATALOG_URL: NOWHERE, RECONCILE_INTERVAL_MS: '0', ...env } });
}

describe('referral links', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });
  const asUser = (service: TestService) => ({ [IDENTITY_HEADER]: service.context('billing').tokens.signIdentity(identity) });

  it('hands out an absolute link that opens with a GET: the click is recorded and the answer says how to register', async () => {
    svc = await billingAlone();
    const codeRes = await svc.request({ method: 'GET', url: '/referral/code', headers: { ...asUser(svc), host: 'api.example.test:8443' } });
    expect(codeRes.status).toBe(200);
    const { code, link } = codeRes.body.data as { code: string; link: string };
    expect(link).toBe(`http://api.example.test:8443/referral/click?code=${code}`);

    const followed = await svc.request({ method: 'GET', url: link.slice(link.indexOf('/referral')), headers: { host: 'api.example.test:8443' } });
    expect(followed.status).toBe(200);
    expect(followed.body.data).toEqual({
      code,
      recorded: true,
      register: { method: 'POST', url: 'http://api.example.test:8443/auth/register', referralCode: code },
    });
    // Codes are case-insensitive in the link too.
    expect((await svc.request({ method: 'GET', url: `/referral/click?code=${code.toLowerCase()}` })).body.data.code).toBe(code);
    const stats = await svc.request({ method: 'GET', url: '/referral/stats', headers: asUser(svc) });
    expect(stats.body.data).toMatchObject({ code, clicks: 2 });
  });

  it('builds the link on PUBLIC_BASE_URL when billing runs behind a gateway of its own', async () => {
    svc = await billingAlone({ PUBLIC_BASE_URL: 'https://api.example.com/' });
    const { code, link } = (await svc.request({ method: 'GET', url: '/referral/code', headers: asUser(svc) })).body.data as { code: string; link: string };
    expect(link).toBe(`https://api.example.com/referral/click?code=${code}`);
    const followed = await svc.request({ method: 'GET', url: `/referral/click?code=${code}` });
    expect(followed.body.data.register.url).toBe('https://api.example.com/auth/register');
  });

  it('answers an unknown code with 404 and a malformed or missing one with 400', async () => {
    svc = await billingAlone();
    const unknown = await svc.request({ method: 'GET', url: '/referral/click?code=NOSUCHCODE' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    for (const url of ['/referral/click?code=not%20a%20code', '/referral/click']) {
      const malformed = await svc.request({ method: 'GET', url });
      expect(malformed.status, url).toBe(400);
      expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});
