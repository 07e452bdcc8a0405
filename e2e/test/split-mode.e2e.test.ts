import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, type SpawnedService } from './spawn-service.ts';

const SECRET = { JWT_SECRET: 'split-mode-secret-that-is-long-enough-0123456789' };

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('gateway and services in separate processes', () => {
  const running: SpawnedService[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
  });

  it('forwards public routes over HTTP with the identity signed, and services ignore bare bearer tokens', async () => {
    const backend = await spawnService({ args: ['--target=auth,billing', '--target=catalog'], env: { ...SECRET } });
    running.push(backend);
    const urls = { AUTH_URL: backend.url, BILLING_URL: backend.url, CATALOG_URL: backend.url };
    const gateway = await spawnService({ args: ['--target=gateway'], env: { ...SECRET, ...urls } });
    running.push(gateway);

    const email = `split-${Date.now()}@example.com`;
    const registered = await call(gateway.url, 'POST', '/auth/register', { email, password: 'a-long-enough-password' });
    expect(registered.status).toBe(201);
    // A forwarded answer that carries a token is not cached either (the gateway applies the route's noStore).
    expect(registered.headers.get('cache-control')).toBe('no-store');
    const token = registered.body.accessToken as string;

    const me = await call(gateway.url, 'GET', '/auth/me', undefined, { authorization: `Bearer ${token}` });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(email);

    // The gateway enforces the bearer token before forwarding.
    expect((await call(gateway.url, 'GET', '/auth/me')).status).toBe(401);
    // A service reached directly trusts only a signed forwarded identity, not a bearer token …
    const direct = await call(backend.url, 'GET', '/auth/me', undefined, { authorization: `Bearer ${token}` });
    expect(direct.status).toBe(401);
    expect(direct.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'This service answers requests forwarded by the gateway only' });
    // … and no identity header a client can make up.
    const forged = await call(backend.url, 'GET', '/auth/me', undefined, { 'x-crawl-identity': 'eyJhbGciOiJub25lIn0.e30.' });
    expect(forged.status).toBe(401);

    // Errors from the owner travel back unchanged through the proxy.
    const conflict = await call(gateway.url, 'POST', '/auth/register', { email, password: 'a-long-enough-password' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');

    // The gateway serves OpenAPI for routes it only forwards.
    const openapi = await call(gateway.url, 'GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).toContain('/auth/register');
  });

  it('answers 503 with Retry-After for a service that is down and 502 for one that answers garbage, in the envelope', async () => {
    // Nothing listens on the auth and catalog ports (as after a kill); billing's speaks no HTTP.
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const babbler = createServer((socket) => socket.once('data', () => socket.end('garbage, not HTTP\r\n\r\n')));
    babbler.listen(0, '127.0.0.1');
    await once(babbler, 'listening');
    try {
      const garbled = `http://127.0.0.1:${(babbler.address() as AddressInfo).port}`;
      const gateway = await spawnService({ args: ['--target=gateway'], env: { ...SECRET, AUTH_URL: nobody, CATALOG_URL: nobody, BILLING_URL: garbled } });
      running.push(gateway);

      const down = await fetch(`${gateway.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'down@example.com', password: 'a-long-enough-password' }),
      });
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await down.json()).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The auth service is unreachable', details: [] },
      });

      const bad = await fetch(`${gateway.url}/referral/click`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":"abc"}' });
      expect(bad.status).toBe(502);
      expect(((await bad.json()) as { error: unknown }).error).toMatchObject({ code: 'BAD_GATEWAY', details: [] });
    } finally {
      babbler.close();
    }
  });
});
