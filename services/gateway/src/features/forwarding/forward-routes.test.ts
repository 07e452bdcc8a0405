import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { RouteSpec } from '@crawl/contracts';
import { errorHandlerPlugin } from '@crawl/errors';
import { InternalTokens } from '@crawl/service-client';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { forwardRoutes } from './forward-routes.ts';

const tokens = new InternalTokens('forwarding-test-secret-that-is-long-enough-0123');

const route = (method: RouteSpec['method'], url: string): RouteSpec => ({
  method,
  url,
  owner: 'catalog',
  access: 'public',
  schema: { summary: url, tags: ['test'], response: {} },
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Resolves true when the gateway went away before the answer was complete. */
  closedEarly: Promise<boolean>;
}

/** A body larger than the gateway reads whole: it streams. */
const BIG = Buffer.alloc(200 * 1024, 'x');

/**
 * The owner service: `/slow` answers after 5 s, `/stall` never sends headers, `/items` answers at
 * once, `/big` with a large body of known size, `/chunks` in three chunks of no announced size,
 * `/drip` with one chunk and then nothing for 5 s.
 */
async function owner(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const closedEarly = new Promise<boolean>((resolve) => res.once('close', () => resolve(!res.writableFinished)));
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closedEarly });
      if (req.url?.startsWith('/slow')) {
        setTimeout(() => !res.destroyed && res.end('{}'), 5_000).unref();
      } else if (req.url?.startsWith('/stall')) {
        // never answers
      } else if (req.url?.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG.length });
        res.end(BIG);
      } else if (req.url?.startsWith('/chunks')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('one,');
        setTimeout(() => res.write('two,'), 20);
        setTimeout(() => res.end('three'), 40);
      } else if (req.url?.startsWith('/drip')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first');
        setTimeout(() => !res.destroyed && res.end('late'), 5_000).unref();
      } else if (req.method === 'DELETE') {
        res.writeHead(204).end();
      } else {
        res.writeHead(201, { 'content-type': 'application/json', 'x-owner': 'catalog', 'keep-alive': 'timeout=5' });
        res.end(JSON.stringify({ data: { echoed: body ? JSON.parse(body) : null } }));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function gateway(baseUrl: string, upstream = {}): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  await app.register(errorHandlerPlugin);
  await forwardRoutes(app, {
    tokens,
    isLocal: () => false,
    baseUrlOf: () => baseUrl,
    upstream,
    routes: [
      route('GET', '/slow'),
      route('GET', '/stall'),
      route('GET', '/big'),
      route('GET', '/chunks'),
      route('GET', '/drip'),
      route('POST', '/items'),
      route('DELETE', '/items'),
    ],
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe('gateway forwarding to a service in another process', () => {
  let down: Awaited<ReturnType<typeof owner>>;
  let edge: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    down = await owner();
    edge = await gateway(down.url);
  });
  afterEach(() => {
    down.seen.length = 0;
  });
  afterAll(async () => {
    await edge.app.close();
    down.server.closeAllConnections();
    down.server.close();
  });

  it('aborts the upstream request when the client goes away before its answer', async () => {
    const controller = new AbortController();
    const pending = fetch(`${edge.url}/slow`, { signal: controller.signal });
    // The client leaves once the owner has the request (a loaded machine may take a while to forward it).
    await vi.waitFor(() => expect(down.seen).toHaveLength(1), { timeout: 5_000, interval: 10 });
    const started = Date.now();
    controller.abort();
    await expect(pending).rejects.toThrow();
    // The owner's answer would come after 5 s; it sees its client leave right after ours did.
    await expect(down.seen[0]?.closedEarly).resolves.toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('passes method, path, query and body through, signs the identity out of the Authorization, and streams the answer back', async () => {
    const response = await fetch(`${edge.url}/items?page=2`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer secret',
        'x-crawl-identity': 'forged',
        'x-internal-token': 'forged',
        'x-custom': 'kept',
      },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-owner')).toBe('catalog');
    // Hop-by-hop headers stay on their hop: the gateway's own keep-alive, not the owner's.
    expect(response.headers.get('keep-alive')).not.toBe('timeout=5');
    expect(await response.json()).toEqual({ data: { echoed: { name: 'x' } } });
    const [seen] = down.seen;
    expect(seen).toMatchObject({ method: 'POST', url: '/items?page=2', body: '{"name":"x"}' });
    expect(seen?.headers.authorization).toBeUndefined();
    // No identity on a public route without a token: the client's made-up header is dropped, not passed.
    expect(seen?.headers['x-crawl-identity']).toBeUndefined();
    expect(seen?.headers['x-internal-token']).toBeUndefined();
    expect(seen?.headers['x-custom']).toBe('kept');
    expect(seen?.headers['x-request-id']).toMatch(/\S+/);
    expect(seen?.headers.host).toBe(new URL(down.url).host);
  });

  it('streams an answer larger than it reads whole, and one of no announced size, byte for byte', async () => {
    const big = await fetch(`${edge.url}/big`);
    expect(big.status).toBe(200);
    expect(big.headers.get('content-length')).toBe(String(BIG.length));
    expect(Buffer.from(await big.arrayBuffer()).equals(BIG)).toBe(true);
    const chunked = await fetch(`${edge.url}/chunks`);
    expect(chunked.headers.get('content-type')).toBe('text/plain');
    expect(await chunked.text()).toBe('one,two,three');
  });

  it('aborts the upstream answer when the client goes away half-way through a streamed one', async () => {
    const controller = new AbortController();
    const response = await fetch(`${edge.url}/drip`, { signal: controller.signal });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(Buffer.from(first?.value ?? []).toString()).toBe('first');
    const started = Date.now();
    controller.abort();
    // The owner would end it after 5 s; it sees its client leave right after ours did.
    await expect(down.seen[0]?.closedEarly).resolves.toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('passes an empty 204 answer through', async () => {
    const response = await fetch(`${edge.url}/items`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(down.seen[0]).toMatchObject({ method: 'DELETE', body: '' });
  });

  it('answers 504 when the owner sends no headers in time, 503 with Retry-After when it is unreachable, 502 when it answers garbage', async () => {
    const impatient = await gateway(down.url, { headersTimeoutMs: 300 });
    const nowhere = await gateway('http://127.0.0.1:9');
    const babbler = await garbageServer();
    const garbled = await gateway(babbler.url);
    try {
      const timedOut = await fetch(`${impatient.url}/stall`);
      expect(timedOut.status).toBe(504);
      expect(((await timedOut.json()) as { error: unknown }).error).toMatchObject({ code: 'GATEWAY_TIMEOUT', details: [] });
      const unreachable = await fetch(`${nowhere.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(unreachable.status).toBe(503);
      expect(unreachable.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(((await unreachable.json()) as { error: unknown }).error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The catalog service is unreachable',
        details: [],
      });
      const bad = await fetch(`${garbled.url}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(bad.status).toBe(502);
      expect(((await bad.json()) as { error: unknown }).error).toMatchObject({ code: 'BAD_GATEWAY', details: [] });
    } finally {
      await impatient.app.close();
      await nowhere.app.close();
      await garbled.app.close();
      babbler.server.close();
    }
  });

  it('answers 503 with Retry-After when the owner accepts the connection and drops it before answering', async () => {
    const dropper = createNetServer((socket) => socket.once('data', () => socket.destroy()));
    dropper.listen(0, '127.0.0.1');
    await once(dropper, 'listening');
    const edge = await gateway(`http://127.0.0.1:${(dropper.address() as AddressInfo).port}`);
    try {
      const response = await fetch(`${edge.url}/items`, { method: 'DELETE' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await edge.app.close();
      dropper.close();
    }
  });
});

/** Something listening that does not speak HTTP: it answers any request with a line of noise. */
async function garbageServer(): Promise<{ url: string; server: NetServer }> {
  const server = createNetServer((socket) => socket.once('data', () => socket.end('this is not HTTP at all\r\n\r\n')));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
