import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RouteSpec } from '@crawl/contracts';
import { errorHandlerPlugin } from '@crawl/errors';
import { acceptJsonBodiesOnly } from '@crawl/http-kit';
import { InternalTokens } from '@crawl/service-client';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardRoutes } from './forward-routes.ts';

const tokens = new InternalTokens('streamed-uploads-test-secret-long-enough-0123');
const MAX_BYTES = 4 * 1024 * 1024;

const upload: RouteSpec = {
  method: 'POST',
  url: '/uploads',
  owner: 'catalog',
  access: 'public',
  streamedBody: { contentTypes: ['text/plain', 'text/csv'], maxBytes: MAX_BYTES },
  schema: { summary: 'upload', tags: ['test'], response: {} },
};
const json: RouteSpec = { method: 'POST', url: '/items', owner: 'catalog', access: 'public', schema: { summary: 'items', tags: ['test'], response: {} } };

interface Received {
  headers: IncomingHttpHeaders;
  bytes: number;
  lines: number;
  /** Chunks the owner read before the client had finished sending. */
  chunksBeforeEnd: number;
}

/** The owner: counts what an upload brings, and answers the counts once it ends. */
async function owner(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const seen: Received = { headers: req.headers, bytes: 0, lines: 0, chunksBeforeEnd: 0 };
    req.on('data', (chunk: Buffer) => {
      seen.bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) seen.lines += 1;
      seen.chunksBeforeEnd += 1;
    });
    req.on('end', () => {
      received.push(seen);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { bytes: seen.bytes, lines: seen.lines } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

async function gateway(baseUrl: string): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ bodyLimit: 1024 * 1024 });
  acceptJsonBodiesOnly(app);
  await app.register(errorHandlerPlugin);
  await forwardRoutes(app, { tokens, isLocal: () => false, baseUrlOf: () => baseUrl, routes: [upload, json] });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

/** `lines` ASIN-like lines, sent as a stream of no announced size, `perChunk` lines a chunk. */
function asinStream(lines: number, perChunk = 1000): ReadableStream<Uint8Array> {
  let sent = 0;
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      if (sent >= lines) return controller.close();
      const count = Math.min(perChunk, lines - sent);
      let text = '';
      for (let i = 0; i < count; i += 1) text += `B${String(sent + i).padStart(9, '0')}\n`;
      sent += count;
      controller.enqueue(encoder.encode(text));
    },
  });
}

describe('gateway forwarding of streamed uploads', () => {
  let down: Awaited<ReturnType<typeof owner>>;
  let edge: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    down = await owner();
    edge = await gateway(down.url);
  });
  afterAll(async () => {
    await edge.app.close();
    down.server.closeAllConnections();
    down.server.close();
  });

  it('streams a plain-text upload past the JSON body limit to the owner, bytes and media type intact', async () => {
    // 300,000 lines of 11 bytes: 3.3 MB, over the gateway's 1 MB limit for JSON bodies.
    const response = await fetch(`${edge.url}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: asinStream(300_000),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ data: { bytes: 3_300_000, lines: 300_000 } });
    const seen = down.received.at(-1);
    expect(seen?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(seen?.headers['transfer-encoding']).toBe('chunked');
    expect(seen?.chunksBeforeEnd).toBeGreaterThan(1);
  });

  it('forwards a CSV upload of known size', async () => {
    const body = 'asin,note\nB000000001,a\nB000000002,b\n';
    const response = await fetch(`${edge.url}/uploads`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ data: { bytes: body.length, lines: 3 } });
    expect(down.received.at(-1)?.headers['content-type']).toBe('text/csv');
  });

  it('refuses an upload past the route limit with 413, whether its size is announced or not', async () => {
    const before = down.received.length;
    const streamed = await fetch(`${edge.url}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: asinStream(500_000),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const announced = await fetch(`${edge.url}/uploads`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(MAX_BYTES + 1) });
    expect(announced.status).toBe(413);
    // The announced one never reached the owner.
    expect(down.received.length - before).toBeLessThanOrEqual(1);
  });

  it('keeps other routes to JSON: plain text elsewhere is still 415', async () => {
    const response = await fetch(`${edge.url}/items`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'B000000001\n' });
    expect(response.status).toBe(415);
  });
});
