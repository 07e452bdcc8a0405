import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, rawExchange } from './raw-http.ts';

const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 800;
/** The limit, Node's deadline check (every headers timeout / 2 at most) and scheduling slack. */
const CLOSE_WITHIN_MS = REQUEST_TIMEOUT_MS + HEADERS_TIMEOUT_MS + 1_500;

describe('slow clients on the public port', () => {
  let svc: TestService;
  let url: string;
  beforeAll(async () => {
    svc = await startTestService({ env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('a body announced as 100 bytes that stops after 10 is answered 408 and the connection closed', async () => {
    const head = 'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const exchange = await rawExchange(url, `${head}{"email":"`, 10_000);
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(CLOSE_WITHIN_MS);
    const response = parseResponse(exchange.text);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'The request was not received in time', details: [] },
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('headers that never finish are answered 408 and the connection closed', async () => {
    const exchange = await rawExchange(url, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: a', 10_000);
    expect(exchange.closed).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(CLOSE_WITHIN_MS);
    expect(parseResponse(exchange.text).status).toBe(408);
  });

  it('a client that sends its request in time is answered as usual', async () => {
    const exchange = await rawExchange(url, 'GET /live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 10_000);
    expect(parseResponse(exchange.text).status).toBe(200);
  });
});
