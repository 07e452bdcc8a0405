import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService, type SpawnedService } from './spawn-service.ts';

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('all-in-one process over real HTTP', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crawl-e2e-persist-'));
  const running: SpawnedService[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers, logs in, hands off, verifies, reports health, and keeps users across a restart', async () => {
    const first = await spawnService({ dataDir, env: { JWT_SECRET: '' } });
    running.push(first);
    const email = `e2e-${Date.now()}@example.com`;
    const password = 'a-long-enough-password';

    const registered = await call(first.url, 'POST', '/auth/register', { email, password, name: 'E2E' });
    expect(registered.status).toBe(201);
    expect(registered.body.user.email).toBe(email);
    expect(registered.headers.get('x-request-id')).toBeTruthy();

    const login = await call(first.url, 'POST', '/auth/login', { email, password });
    expect(login.status).toBe(200);
    const me = await call(first.url, 'GET', '/auth/me', undefined, login.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(email);

    const handoff = await call(first.url, 'POST', '/auth/login-handoff', { email, password });
    expect(handoff.status).toBe(200);
    const verified = await call(first.url, 'POST', '/auth/verify-handoff', { handoffToken: handoff.body.handoffToken });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(email);

    const health = await call(first.url, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', info: { api: { status: 'up' } }, error: {}, details: { api: { status: 'up' } } });

    const logout = await fetch(`${first.url}/auth/logout`, { method: 'POST' });
    expect(logout.status).toBe(204);

    // SIGTERM stops it cleanly; the generated secret and the user survive under DATA_DIR.
    expect(await first.stop()).toBe(0);
    running.splice(running.indexOf(first), 1);
    // Only the services that own data have a database; the gateway and the worker leave no file.
    const databases = readdirSync(dataDir).filter((name) => name.endsWith('.db'));
    expect(databases.sort()).toEqual(['auth.db', 'billing.db', 'catalog.db']);
    const second = await spawnService({ dataDir, env: { JWT_SECRET: '' } });
    running.push(second);
    const again = await call(second.url, 'POST', '/auth/login', { email, password });
    expect(again.status).toBe(200);
    const oldToken = await call(second.url, 'GET', '/auth/me', undefined, login.body.accessToken);
    expect(oldToken.status).toBe(200);
  });

  it('refuses to start with a short JWT_SECRET and says why', async () => {
    await expect(spawnService({ env: { JWT_SECRET: 'short' } })).rejects.toThrow(/JWT_SECRET: must be at least 32 bytes/);
  });

  it('refuses an unknown target and lists the valid ones', async () => {
    await expect(spawnService({ args: ['--target=warehouse'] })).rejects.toThrow(
      /Unknown target "warehouse"; valid targets: all, gateway, auth, catalog, billing, crawler-worker/,
    );
  });
});
