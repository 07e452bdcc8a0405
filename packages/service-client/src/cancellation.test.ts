import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { abortSignalFor, RequestAbortedError } from './abort.ts';
import { HttpTransport } from './http-transport.ts';
import { InternalTokens } from './internal-tokens.ts';
import { LocalTransport } from './local-transport.ts';
import { ServiceClient } from './service-client.ts';
import type { ServiceTransport } from './service-transport.ts';

const tokens = new InternalTokens('cancellation-test-secret-that-is-long-enough-0123');
const client = (transport: ServiceTransport) => new ServiceClient({ from: 'catalog', target: 'billing', transport, tokens });

/** What the downstream saw of each request: did its client leave before the answer? */
interface Seen {
  path: string;
  closedEarly: Promise<boolean>;
}

/** A downstream whose `/slow` answers after 3 s, `/busy` always 503, `/fast` at once. */
async function downstream(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const closedEarly = new Promise<boolean>((resolve) => res.once('close', () => resolve(!res.writableFinished)));
    seen.push({ path: req.url ?? '', closedEarly });
    req.resume();
    const answer = (status: number) => {
      if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { ok: status < 300 } }));
    };
    if (req.url?.startsWith('/slow')) setTimeout(() => answer(200), 3_000).unref();
    else if (req.url?.startsWith('/busy')) answer(503);
    else answer(200);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('HttpTransport with an AbortSignal', () => {
  let down: Awaited<ReturnType<typeof downstream>>;
  let transport: HttpTransport;
  beforeAll(async () => {
    down = await downstream();
    transport = new HttpTransport({ baseUrl: down.url, retries: 3 });
  });
  afterEach(() => {
    down.seen.length = 0;
  });
  afterAll(async () => {
    await transport.close();
    down.server.closeAllConnections();
    down.server.close();
  });

  it('aborts the HTTP request: the caller stops at once and the callee sees its client leave', async () => {
    const controller = new AbortController();
    const call = client(transport).call({ method: 'POST', path: '/slow', body: { a: 1 }, idempotent: true, signal: controller.signal });
    // Abort once the callee has the request (a loaded machine may take a while to send it).
    await vi.waitFor(() => expect(down.seen).toHaveLength(1), { timeout: 5_000, interval: 10 });
    const started = Date.now();
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(down.seen[0]?.closedEarly).resolves.toBe(true);
  });

  it('does not retry once the signal aborted', async () => {
    const controller = new AbortController();
    // Retries pause 100 ms, then 200 ms…: abort during the first pause.
    setTimeout(() => controller.abort(), 50);
    await expect(client(transport).call({ method: 'GET', path: '/busy', signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(down.seen.map((s) => s.path)).toEqual(['/busy']);
  });

  it('sends nothing when the signal aborted before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client(transport).call({ method: 'GET', path: '/fast', signal: controller.signal })).rejects.toMatchObject({
      code: 'REQUEST_ABORTED',
      statusCode: 499,
    });
    expect(down.seen).toHaveLength(0);
  });

  it('still retries idempotent calls without a signal, and answers normally with one that never aborts', async () => {
    await expect(client(transport).call({ method: 'GET', path: '/busy' })).rejects.toMatchObject({ statusCode: 503 });
    expect(down.seen).toHaveLength(4);
    await expect(client(transport).call({ method: 'GET', path: '/fast', signal: new AbortController().signal })).resolves.toEqual({ data: { ok: true } });
  });

  it('keeps its own bounded timeout: a slow callee is given up on without any signal', async () => {
    const bounded = new HttpTransport({ baseUrl: down.url, timeoutMs: 200, retries: 0 });
    const started = Date.now();
    await expect(client(bounded).call({ method: 'POST', path: '/slow', body: {} })).rejects.toMatchObject({ code: 'GATEWAY_TIMEOUT', statusCode: 504 });
    expect(Date.now() - started).toBeLessThan(1_500);
    await bounded.close();
  });
});

describe('LocalTransport with an AbortSignal', () => {
  let app: FastifyInstance;
  const finished: string[] = [];
  beforeAll(async () => {
    app = Fastify();
    app.post('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      finished.push('slow');
      return { data: { ok: true } };
    });
    app.get('/fast', async () => ({ data: { ok: true } }));
    await app.ready();
  });
  afterAll(async () => app.close());

  it('stops waiting for an in-process call when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(client(new LocalTransport(() => app)).call({ method: 'POST', path: '/slow', body: {}, signal: controller.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(finished).toEqual([]);
  });

  it('answers normally when the signal does not abort', async () => {
    const signal = new AbortController().signal;
    await expect(client(new LocalTransport(() => app)).call({ method: 'GET', path: '/fast', signal })).resolves.toEqual({ data: { ok: true } });
  });
});

describe('abortSignalFor', () => {
  it('aborts when the client leaves before the response is complete, and not after a complete one', async () => {
    const signals: AbortSignal[] = [];
    const server = createServer((req, res) => {
      const signal = abortSignalFor(res);
      signals.push(signal);
      req.resume();
      // The request's own 'close' comes once the body is read; the signal must not follow it.
      req.once('close', () => expect(signal.aborted).toBe(false));
      if (req.url === '/fast') res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/fast`, { method: 'POST', body: 'x' })).text()).toBe('ok');
      const controller = new AbortController();
      const hanging = fetch(`${base}/hang`, { method: 'POST', body: 'x', signal: controller.signal });
      await vi.waitFor(() => expect(signals).toHaveLength(2), { timeout: 5_000, interval: 10 });
      controller.abort();
      await expect(hanging).rejects.toThrow();
      await vi.waitFor(() => expect(signals[1]?.aborted).toBe(true), { timeout: 5_000, interval: 10 });
      expect(signals[0]?.aborted).toBe(false);
      expect(signals[1]?.reason).toBeInstanceOf(RequestAbortedError);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
