import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../spawn-service.ts';

// Issue: the sandbox provider was the default, so `POST /private/credits/checkout {"packageId":"growth"}`
// granted 221,000 credits for nothing wherever payments had not been configured.
describe('checkout without a configured payment provider', () => {
  let svc: TestService;
  afterAll(async () => svc?.close());

  it('answers 503 PAYMENTS_NOT_CONFIGURED in the envelope and grants nothing', async () => {
    // An empty value is "unset": the default, `none`.
    svc = await startTestService({ env: { PAYMENT_PROVIDER: '' } });
    const user = await svc.registerUser();
    const dash = await svc.dashboardToken(user);
    const packages = await svc.request({ method: 'GET', url: '/private/credits/packages', token: dash });
    expect(packages.status).toBe(200);

    const checkout = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body: { packageId: 'growth' } });
    expect(checkout.status).toBe(503);
    expect(checkout.body).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('no payment provider'), details: [{ reason: 'PAYMENTS_NOT_CONFIGURED' }] },
    });
    const usage = await svc.request({ method: 'GET', url: '/usage', token: user.token });
    expect(usage.body.data.credits).toEqual({ available: 1000, reserved: 0 });
  });
});

describe('the sandbox provider, explicitly enabled', () => {
  it('completes orders outside production', async () => {
    const svc = await startTestService({ env: { PAYMENT_PROVIDER: 'sandbox', NODE_ENV: 'development' } });
    try {
      const dash = await svc.dashboardToken(await svc.registerUser());
      const checkout = await svc.request({ method: 'POST', url: '/private/credits/checkout', token: dash, body: { packageId: 'starter' } });
      expect(checkout.status).toBe(201);
      expect(checkout.body.data.order).toMatchObject({ status: 'completed', provider: 'sandbox' });
    } finally {
      await svc.close();
    }
  });

  it('stops start-up with a configuration error when NODE_ENV=production', async () => {
    await expect(startTestService({ env: { PAYMENT_PROVIDER: 'sandbox', NODE_ENV: 'production' } })).rejects.toMatchObject({
      name: 'ConfigError',
      message: expect.stringContaining('PAYMENT_PROVIDER'),
    });
  });

  it('makes the binary exit 2 with the reason, before it listens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawl-sandbox-'));
    const argv = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', 'apps/server/src/bin.ts'];
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' };
    const failure = await promisify(execFile)(process.execPath, argv, { cwd: REPO_ROOT, env, timeout: 30_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('Invalid configuration');
    expect(failure.stderr).toContain('refused when NODE_ENV=production');
  });
});
