import { PUBLIC_ROUTES } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A browser on another origin may use every method the public API has, and no other. */
describe('CORS preflight', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  const preflight = async (url: string, method: string) => {
    const response = await svc.app.inject({ method: 'OPTIONS', url, headers: { origin: 'https://app.example.com', 'access-control-request-method': method } });
    return { status: response.statusCode, headers: response.headers };
  };

  it('allows exactly the methods of the public route table, HEAD with GET', async () => {
    const response = await preflight('/webhooks/abc', 'DELETE');
    expect(response.status).toBe(204);
    const allowed = String(response.headers['access-control-allow-methods'])
      .split(',')
      .map((m) => m.trim());
    const expected = new Set([...PUBLIC_ROUTES.map((route) => route.method as string), 'HEAD']);
    expect(new Set(allowed)).toEqual(expected);
    // The ones a hand-kept list had left out.
    expect(allowed).toEqual(expect.arrayContaining(['PATCH', 'PUT', 'DELETE']));
  });

  it.each([
    ['PATCH', '/projects/abc'],
    ['PUT', '/admin/crawler/rate'],
    ['DELETE', '/webhooks/abc'],
  ])('a %s preflight for %s is allowed', async (method, url) => {
    const response = await preflight(url, method);
    expect(response.status).toBe(204);
    expect(String(response.headers['access-control-allow-methods'])).toContain(method);
  });

  it.each([
    ['no Origin', { 'access-control-request-method': 'GET' }],
    ['no Access-Control-Request-Method', { origin: 'https://app.example.com' }],
    ['neither', {}],
  ])('an OPTIONS request with %s is refused in the error envelope', async (_case, headers: Record<string, string>) => {
    const response = await svc.app.inject({ method: 'OPTIONS', url: '/projects', headers });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: 'An OPTIONS request must be a CORS preflight' } });
    expect(response.json().error.details.length).toBeGreaterThan(0);
  });
});
