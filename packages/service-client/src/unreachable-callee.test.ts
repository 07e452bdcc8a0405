import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { errorHandlerPlugin } from '@crawl/errors';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from './http-transport.ts';
import { InternalTokens } from './internal-tokens.ts';
import { ServiceClient } from './service-client.ts';

const tokens = new InternalTokens('unreachable-callee-test-secret-long-enough-0123');

function clientFor(baseUrl: string, timeoutMs = 5_000): { client: ServiceClient; transport: HttpTransport } {
  const transport = new HttpTransport({ baseUrl, retries: 0, timeoutMs });
  return { client: new ServiceClient({ from: 'catalog', target: 'billing', transport, tokens }), transport };
}

async function listening<T extends Server | NetServer>(server: T): Promise<{ server: T; url: string }> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** What a caller of the client answers its own client: the error handler's status, Retry-After and envelope. */
async function answerOf(call: () => Promise<unknown>): Promise<{ status: number; retryAfter: string | undefined; body: { error: Record<string, unknown> } }> {
  const app = Fastify();
  await app.register(errorHandlerPlugin);
  app.get('/', async () => call());
  try {
    const response = await app.inject({ method: 'GET', url: '/' });
    return { status: response.statusCode, retryAfter: response.headers['retry-after'] as string | undefined, body: response.json() };
  } finally {
    await app.close();
  }
}

describe('a service whose callee is down or broken answers 503/502/504, never 500', () => {
  let closedPortUrl: string;
  let garbage: { server: NetServer; url: string };
  let callee: { server: Server; url: string };
  beforeAll(async () => {
    // A port that was just free: nothing listens there any more.
    const closed = await listening(createNetServer());
    closedPortUrl = closed.url;
    closed.server.close();
    garbage = await listening(createNetServer((socket) => socket.once('data', () => socket.end('garbage, not HTTP\r\n\r\n'))));
    callee = await listening(
      createServer((req, res) => {
        req.resume();
        if (req.url === '/busy')
          res.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":{"code":"SERVICE_UNAVAILABLE","message":"busy"}}');
        else if (req.url === '/broken') res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>');
        // '/stall' never answers
      }),
    );
  });
  afterAll(() => {
    garbage.server.close();
    callee.server.closeAllConnections();
    callee.server.close();
  });

  it('a callee nobody listens for: 503 SERVICE_UNAVAILABLE with Retry-After in the envelope', async () => {
    const { client, transport } = clientFor(closedPortUrl);
    try {
      const answer = await answerOf(() => client.call({ method: 'POST', path: '/internal/reservations', body: {} }));
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(answer.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The billing service is unreachable', details: [] });
    } finally {
      await transport.close();
    }
  });

  it('a callee that answers garbage: 502 BAD_GATEWAY', async () => {
    const { client, transport } = clientFor(garbage.url);
    try {
      const answer = await answerOf(() => client.call({ method: 'GET', path: '/anything' }));
      expect(answer.status).toBe(502);
      expect(answer.body.error).toMatchObject({ code: 'BAD_GATEWAY', details: [] });
    } finally {
      await transport.close();
    }
  });

  it('a callee too slow to answer: 504 GATEWAY_TIMEOUT', async () => {
    const { client, transport } = clientFor(callee.url, 300);
    try {
      const answer = await answerOf(() => client.call({ method: 'GET', path: '/stall' }));
      expect(answer.status).toBe(504);
      expect(answer.body.error).toMatchObject({ code: 'GATEWAY_TIMEOUT', details: [] });
    } finally {
      await transport.close();
    }
  });

  it("a callee's own 503 keeps its Retry-After; its bare 500 becomes 502", async () => {
    const { client, transport } = clientFor(callee.url);
    try {
      const busy = await answerOf(() => client.call({ method: 'POST', path: '/busy', body: {} }));
      expect(busy.status).toBe(503);
      expect(busy.retryAfter).toBe('7');
      expect(busy.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'busy' });
      const broken = await answerOf(() => client.call({ method: 'POST', path: '/broken', body: {} }));
      expect(broken.status).toBe(502);
      expect(broken.body.error).toMatchObject({ code: 'BAD_GATEWAY' });
    } finally {
      await transport.close();
    }
  });
});
