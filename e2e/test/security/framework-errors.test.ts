import { SECURITY_HEADERS } from '@crawl/http-kit';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawExchange, type RawResponse } from './raw-http.ts';

/**
 * Failures that happen before any route runs (Node's parser, Fastify's router) leave like every
 * other error: the envelope, the security headers, none of the client's input echoed.
 */
describe('errors from the HTTP layer', () => {
  let svc: TestService;
  let url: string;
  beforeAll(async () => {
    svc = await startTestService();
    url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await svc.close();
  });

  const send = async (request: string) => parseResponse((await rawExchange(url, request, 5_000)).text);
  const get = (path: string, method = 'GET') => send(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

  function expectEnvelope(response: RawResponse, status: number, marker?: string) {
    expect(response.status).toBe(status);
    const body = JSON.parse(response.body);
    expect(body).toEqual({ success: false, error: { code: expect.any(String), message: expect.any(String), details: [] } });
    if (marker) expect(response.body).not.toContain(marker);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name], name).toBe(value);
  }

  it('uses the security headers the gateway sends on every other answer', async () => {
    const normal = await get('/live');
    expect(normal.status).toBe(200);
    const helmetNames = Object.keys(normal.headers).filter(
      (name) => name in SECURITY_HEADERS || /^(x-|cross-origin|origin-agent|referrer|strict-transport)/.test(name),
    );
    const helmet = Object.fromEntries(helmetNames.filter((name) => name !== 'x-request-id').map((name) => [name, normal.headers[name]]));
    expect(helmet).toEqual(SECURITY_HEADERS);
  });

  it('a path parameter over the length limit: 414 in the envelope, the path not echoed', async () => {
    const marker = 'z'.repeat(300);
    expectEnvelope(await get(`/jobs/${marker}`), 414, marker);
  });

  it('router errors carry a request id: the one the client sent, or a new one', async () => {
    const sent = await send(`GET /jobs/${'z'.repeat(300)} HTTP/1.1\r\nHost: x\r\nX-Request-Id: support-case-1\r\nConnection: close\r\n\r\n`);
    expect(sent.status).toBe(414);
    expect(sent.headers['x-request-id']).toBe('support-case-1');
    const fresh = await get('/%E0%A4%A');
    expect(fresh.status).toBe(400);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a URL that does not decode: 400 in the envelope, the URL not echoed', async () => {
    const response = await get('/%E0%A4%A');
    expectEnvelope(response, 400, '%E0');
    expect(JSON.parse(response.body).error.code).toBe('VALIDATION_ERROR');
  });

  it('headers over the size limit: 431 in the envelope, with no body on HEAD', async () => {
    const big = 'y'.repeat(20_000);
    const getResponse = await send(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    expectEnvelope(getResponse, 431, big);
    const headResponse = await send(`HEAD /health HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    expect(headResponse.status).toBe(431);
    expect(headResponse.body).toBe('');
    expect(Number(headResponse.headers['content-length'])).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headResponse.headers[name], name).toBe(value);
  });

  it('bytes that are not HTTP: 400 in the envelope', async () => {
    expectEnvelope(await send('GET /\x01echo HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'echo');
  });

  it('an unknown route: 404 in the envelope, the path not echoed', async () => {
    expectEnvelope(await get('/no-such-route-echo'), 404, 'no-such-route-echo');
    const head = await get('/no-such-route-echo', 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
  });
});
