import { SECURITY_HEADERS } from '@crawl/http-kit';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Helmet's headers that only mean something on a page a browser renders. */
const PAGE_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * JSON answers carry the API's security headers and nothing of Helmet's page policy (it cost
 * ~550 bytes an answer); the HTML of the API explorer keeps Helmet's whole set.
 */
describe('security headers by kind of answer', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    svc = await startTestService();
    token = (await svc.registerUser()).token;
  });
  afterAll(async () => svc.close());

  function expectApiHeaders(headers: Record<string, unknown>) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
    for (const name of PAGE_ONLY) expect(headers[name], name).toBeUndefined();
  }

  it('a JSON answer, an error from a hook and an unknown route carry the API set only', async () => {
    const ok = await svc.request({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expectApiHeaders(ok.headers);
    const unauthorized = await svc.request({ method: 'GET', url: '/auth/me' });
    expect(unauthorized.status).toBe(401);
    expectApiHeaders(unauthorized.headers);
    const missing = await svc.request({ method: 'GET', url: '/no-such-route' });
    expect(missing.status).toBe(404);
    expectApiHeaders(missing.headers);
  });

  it('the API explorer (HTML) gets Helmet’s page policy', async () => {
    const page = await svc.request({ method: 'GET', url: '/docs/' });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    for (const name of PAGE_ONLY) expect(page.headers[name], name).toBeDefined();
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
