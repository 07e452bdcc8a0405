import { createTestBucket, TEST_S3_CREDENTIALS } from '@crawl/destination-s3/test-server';
import fc from 'fast-check';
import { FuzzWorld, type UserTokens } from './fuzz-world.ts';
import type { Tenant } from './request-plans.ts';
import type { PropertyHints } from './schema-values.ts';

export const FUZZ_PASSWORD = 'fuzz-password-long-enough';
export const ADMIN_EMAIL = 'fuzz-admin@example.com';

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`fixture ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function register(base: string, email: string): Promise<string> {
  const { accessToken } = await call(base, 'POST', '/auth/register', undefined, { email, password: FUZZ_PASSWORD, name: email.split('@')[0] });
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString('utf8')) as { org: string };
  return claims.org;
}

/** Logs in afresh (a role granted after registration is in the new tokens) and fetches a dashboard token too. */
async function tokensOf(base: string, email: string): Promise<UserTokens> {
  const credentials = { email, password: FUZZ_PASSWORD };
  const { accessToken } = await call(base, 'POST', '/auth/login', undefined, credentials);
  const { handoffToken } = await call(base, 'POST', '/auth/login-handoff', undefined, credentials);
  const dashboard = await call(base, 'POST', '/auth/verify-handoff', undefined, { handoffToken, audience: 'dashboard' });
  return { api: accessToken, dashboard: dashboard.accessToken };
}

/** One of each resource the id routes name, owned by the tenant. */
async function furnish(base: string, world: FuzzWorld, tenant: Tenant, webhookUrl: string): Promise<void> {
  const token = world.tokens[tenant].api;
  const project = (await call(base, 'POST', '/projects', token, { name: `fuzz ${tenant}` })).data;
  world.add(tenant, 'project', project.id);
  const job = (await call(base, 'POST', `/projects/${project.id}/jobs`, token, { type: 'search', targets: ['usb cable'] })).data;
  world.add(tenant, 'job', job.id);
  const schedule = (
    await call(base, 'POST', `/projects/${project.id}/schedules`, token, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['desk lamp'] } })
  ).data;
  world.add(tenant, 'schedule', schedule.id);
  const webhook = (await call(base, 'POST', `/projects/${project.id}/webhooks`, token, { url: webhookUrl })).data;
  world.add(tenant, 'webhook', webhook.id);
  const delivery = (await call(base, 'POST', `/webhooks/${webhook.id}/test`, token)).data;
  world.add(tenant, 'delivery', delivery.id);
  // Paused: it never runs, so the fuzzed jobs stay the only ones.
  const monitor = (
    await call(base, 'POST', `/projects/${project.id}/monitors`, token, {
      name: `fuzz ${tenant}`,
      type: 'search',
      targets: ['desk lamp'],
      domain: 'amazon.com',
      every: '1d',
      watch: ['organicRank'],
      rules: [{ field: 'organicRank', op: 'entersTop', value: 3 }],
      enabled: false,
    })
  ).data;
  world.add(tenant, 'monitor', monitor.id);
  const list = await upload(base, `/projects/${project.id}/target-lists?type=search&name=fuzz`, token, 'usb cable\ndesk lamp\n');
  world.add(tenant, 'target-list', list.data.list.id);
  // A destination needs a store its create can write a test object to: the S3 server CI starts.
  const s3 = process.env.TEST_S3_URL;
  if (s3) {
    const bucket = `fuzz-${tenant}-${Date.now().toString(36)}`;
    await createTestBucket(s3, bucket);
    const destination = (
      await call(base, 'POST', `/projects/${project.id}/destinations`, token, {
        type: 's3',
        bucket,
        prefix: 'fuzz',
        region: TEST_S3_CREDENTIALS.region,
        endpoint: s3,
        accessKeyId: TEST_S3_CREDENTIALS.accessKeyId,
        secretAccessKey: TEST_S3_CREDENTIALS.secretAccessKey,
        format: 'ndjson',
        gzip: true,
      })
    ).data;
    world.add(tenant, 'destination', destination.id);
  } else if (process.env.CI === 'true') throw new Error('CI requires TEST_S3_URL: the fuzz suite probes destinations too');
}

/** A plain-text upload (a target list), as the route takes it. */
async function upload(base: string, path: string, token: string, text: string): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` }, body: text });
  const body = await res.text();
  if (!res.ok) throw new Error(`fixture POST ${path}: ${res.status} ${body}`);
  return JSON.parse(body);
}

/**
 * Two organizations with a project, a job, a schedule, a webhook, a delivery and a monitor each, an admin,
 * and the values that let generated bodies through validation (their emails, codes, packages).
 */
export async function setUpTenants(
  base: string,
  { grantAdmin, webhookUrl }: { grantAdmin: (email: string) => Promise<void>; webhookUrl: string },
): Promise<{ world: FuzzWorld; hints: PropertyHints; emails: Record<Tenant, string> }> {
  const stamp = Date.now().toString(36);
  const emails = { a: `fuzz-a-${stamp}@example.com`, b: `fuzz-b-${stamp}@example.com` };
  const organizations = { a: await register(base, emails.a), b: await register(base, emails.b) };
  await register(base, ADMIN_EMAIL);
  await grantAdmin(ADMIN_EMAIL);
  const tokens = { a: await tokensOf(base, emails.a), b: await tokensOf(base, emails.b), admin: await tokensOf(base, ADMIN_EMAIL) };
  await call(base, 'GET', '/admin/queue/stats', tokens.admin.api); // the grant took: admin routes get fuzzed past the role check
  const world = new FuzzWorld(tokens, organizations);
  await furnish(base, world, 'a', webhookUrl);
  await furnish(base, world, 'b', webhookUrl);

  const packages = ((await call(base, 'GET', '/private/credits/packages', tokens.a.dashboard)).data as { id: string }[]).map((p) => p.id);
  const codes = await Promise.all([tokens.a, tokens.b].map(async ({ api }) => (await call(base, 'GET', '/referral/code', api)).data.code as string));
  const { handoffToken } = await call(base, 'POST', '/auth/login-handoff', undefined, { email: emails.a, password: FUZZ_PASSWORD });

  const hints: PropertyHints = {
    email: fc.oneof(fc.constantFrom(emails.a, emails.b, ADMIN_EMAIL, 'nobody@example.com'), fc.emailAddress()),
    password: fc.constantFrom(FUZZ_PASSWORD, 'a-wrong-password'),
    handoffToken: fc.constantFrom(handoffToken, `${handoffToken}x`, 'not-a-token'),
    packageId: fc.constantFrom(...packages, 'no-such-package'),
    code: fc.constantFrom(...codes, 'NOSUCHCODE'),
    referralCode: fc.constantFrom(...codes, 'NOSUCHCODE'),
    url: fc.constantFrom(
      webhookUrl,
      `${webhookUrl}/other?x=1`,
      'https://hooks.example.invalid/never-resolves',
      'http://hooks.example.invalid/plain-http',
      'https://127.0.0.1/loopback',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/v6',
      'https://0x7f000001/hex',
      'ftp://hooks.example.invalid/',
      'not a url',
    ),
    cron: fc.constantFrom('0 6 * * *', '*/30 * * * *', '0 0 1 1 *', '61 * * * *', '* * * *', '@daily', '0 6 * * 8', 'a b c d e'),
    // Keywords and ASINs only: a product URL would send the worker to the live marketplace.
    targets: fc.array(fc.constantFrom('usb cable', 'desk lamp', 'B000000001', 'B0FUZZ0002', ''), { minLength: 1, maxLength: 3 }),
  };
  return { world, hints, emails };
}
