import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { mongoTestServer } from '@crawl/storage-mongo/test-server';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../spawn-service.ts';

const run = promisify(execFile);

/** `node apps/server/src/bin.ts admin …` as an operator runs it (what `pnpm admin …` runs). */
async function adminCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', 'apps/server/src/bin.ts', 'admin', ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd: REPO_ROOT, env: { ...process.env, MONGO_URL: '', LOG_LEVEL: 'silent', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function roleIn(token: string): unknown {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')).role;
}

async function freshToken(svc: TestService, user: TestUser): Promise<string> {
  const login = await svc.request({ method: 'POST', url: '/auth/login', body: { email: user.email, password: user.password } });
  expect(login.status).toBe(200);
  return login.body.accessToken;
}

/** The grant/revoke round trip against a running service whose store the CLI reaches through `storageEnv`. */
async function grantAndRevoke(svc: TestService, storageEnv: Record<string, string>): Promise<void> {
  const user = await svc.registerUser({ email: `Ops-${randomUUID().slice(0, 6)}@Example.com` });
  const stored = user.email.toLowerCase();
  const adminRoute = (token: string) => svc.request({ method: 'GET', url: `/admin/organizations/${user.organizationId}/usage`, token });
  expect(roleIn(user.token)).toBe('user');
  expect((await adminRoute(user.token)).status).toBe(403);

  const granted = await adminCli(['grant', user.email.toUpperCase()], storageEnv);
  expect(granted, granted.stderr).toMatchObject({ code: 0 });
  expect(granted.stdout).toContain(`Granted admin to ${stored}`);
  const adminToken = await freshToken(svc, user);
  expect(roleIn(adminToken)).toBe('admin');
  expect((await adminRoute(adminToken)).status).toBe(200);

  const listed = await adminCli(['list'], storageEnv);
  expect(listed.code).toBe(0);
  expect(listed.stdout.split('\n')).toContain(stored);

  const revoked = await adminCli(['revoke', user.email], storageEnv);
  expect(revoked, revoked.stderr).toMatchObject({ code: 0 });
  const userToken = await freshToken(svc, user);
  expect(roleIn(userToken)).toBe('user');
  expect((await adminRoute(userToken)).status).toBe(403);

  const unknown = await adminCli(['grant', 'nobody@example.com'], storageEnv);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('No user with email nobody@example.com');
}

describe('crawl-server admin grant|revoke on the embedded store (DATA_DIR)', () => {
  let svc: TestService;
  afterAll(async () => svc?.close());

  it('grants and revokes the admin role of a registered user while the service runs', async () => {
    svc = await startTestService();
    await grantAndRevoke(svc, { DATA_DIR: svc.dataDir });
  });

  it('refuses bad usage and a DATA_DIR without an auth database, creating nothing', async () => {
    for (const args of [[], ['grant'], ['grant', 'not-an-email'], ['promote', 'a@example.com'], ['grant', 'a@example.com', 'b@example.com']]) {
      const result = await adminCli(args, { DATA_DIR: svc.dataDir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage: crawl-server admin grant EMAIL');
    }
    const empty = mkdtempSync(join(tmpdir(), 'crawl-admin-'));
    const missing = await adminCli(['grant', 'a@example.com'], { DATA_DIR: empty });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No auth database');
  });
});

// In CI a missing server throws here (mongoTestServer): the skip below is for machines without one.
const found = await mongoTestServer();
afterAll(async () => {
  if ('server' in found) await found.server.stop();
});

describe.skipIf(!('server' in found))('crawl-server admin grant|revoke on MongoDB (MONGO_URL)', () => {
  let svc: TestService | undefined;
  afterAll(async () => svc?.close());

  it('grants and revokes the admin role in the auth database the service uses', async () => {
    if (!('server' in found)) return;
    const storageEnv = { MONGO_URL: found.server.url, MONGO_DB_PREFIX: `adm${randomUUID().slice(0, 6)}_` };
    svc = await startTestService({ env: storageEnv });
    await grantAndRevoke(svc, storageEnv);
  });
});
