import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import type { Resolver } from './address-guard.ts';
import { SecretBox } from './signer.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Public names for the URL rules; everything else does not resolve. */
const resolver: Resolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'other.example.com': ['93.184.216.35'],
    'rebind.example.com': ['127.0.0.1'],
    'internal.example.com': ['10.1.2.3'],
    'meta.example.com': ['169.254.169.254'],
    'v6loop.example.com': ['::1'],
  };
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);
};

describe.each(testBackends())('webhook endpoint routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let mallory: HarnessUser;
  let projectId: string;
  const create = (body: unknown, token = alice.token, project = projectId) => h.request({ method: 'POST', url: `/projects/${project}/webhooks`, token, body });

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env(), webhooks: { resolver } });
    alice = h.user();
    mallory = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('creates an endpoint, shows the whsec_ secret once, lists it without the secret', async () => {
    const res = await create({ url: 'https://hooks.example.com/crawl', description: ' ops ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      projectId,
      organizationId: alice.organizationId,
      url: 'https://hooks.example.com/crawl',
      description: 'ops',
      events: ['job.completed', 'job.failed', 'job.cancelled', 'schedule.failed', 'monitor.triggered', 'monitor.paused'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      consecutiveFailures: 0,
      previousSecretExpiresAt: null,
    });
    expect(res.body.data.id).toMatch(/^whk_/);
    expect(res.body.data.createdAt).toMatch(ISO_UTC);
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await h.request({ method: 'GET', url: `/projects/${projectId}/webhooks`, token: alice.token });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((e: { id: string }) => e.id === res.body.data.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('secret');
    expect(list.text).not.toContain(res.body.data.secret.slice(6));
    expect(list.body.meta).toEqual({ total: list.body.data.length, limit: 20, offset: 0 });
    await create({ url: 'https://hooks.example.com/second' });
    const paged = await h.request({ method: 'GET', url: `/projects/${projectId}/webhooks?limit=1&offset=1`, token: alice.token });
    expect(paged.body.meta).toEqual({ total: list.body.meta.total + 1, limit: 1, offset: 1 });
    expect(paged.body.data).toHaveLength(1);
  });

  it('stores the secret encrypted, never in the clear', async () => {
    const res = await create({ url: 'https://hooks.example.com/enc' });
    const stored = await h.context.store
      .collection<{ _id: string; secrets: Array<{ sealed: string }> }>('webhook_endpoints')
      .findOne({ _id: res.body.data.id });
    expect(JSON.stringify(stored)).not.toContain(res.body.data.secret.slice(6));
    expect(new SecretBox(h.context.secrets.jwtSecret).open(stored?.secrets[0]?.sealed ?? '')).toBe(res.body.data.secret);
  });

  it('keeps the chosen events and a disabled start', async () => {
    const res = await create({ url: 'https://hooks.example.com/x', events: ['job.failed'], enabled: false });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ events: ['job.failed'], enabled: false, disabledReason: { code: 'user' } });
  });

  it.each([
    ['missing url', {}],
    ['url as number', { url: 42 }],
    ['url operator', { url: { $ne: null } }],
    ['relative url', { url: '/hooks' }],
    ['http url', { url: 'http://hooks.example.com/x' }],
    ['ftp url', { url: 'ftp://hooks.example.com/x' }],
    ['credentials', { url: 'https://user:pw@hooks.example.com/x' }],
    ['loopback literal', { url: 'https://127.0.0.1/x' }],
    ['IPv6 loopback', { url: 'https://[::1]/x' }],
    ['mapped IPv6 loopback', { url: 'https://[::ffff:127.0.0.1]/x' }],
    ['metadata address', { url: 'https://169.254.169.254/latest/meta-data' }],
    ['private address', { url: 'https://192.168.0.10/x' }],
    ['CGNAT address', { url: 'https://100.64.0.10/x' }],
    ['localhost', { url: 'https://localhost/x' }],
    ['name resolving to 127.0.0.1', { url: 'https://rebind.example.com/x' }],
    ['name resolving to a private address', { url: 'https://internal.example.com/x' }],
    ['name resolving to the metadata address', { url: 'https://meta.example.com/x' }],
    ['name resolving to ::1', { url: 'https://v6loop.example.com/x' }],
    ['name that does not resolve', { url: 'https://nowhere.example.com/x' }],
    ['unknown event', { url: 'https://hooks.example.com/x', events: ['job.started'] }],
    ['empty events', { url: 'https://hooks.example.com/x', events: [] }],
    ['duplicate events', { url: 'https://hooks.example.com/x', events: ['job.failed', 'job.failed'] }],
    ['oversized url', { url: `https://hooks.example.com/${'a'.repeat(2100)}` }],
    ['extra key', { url: 'https://hooks.example.com/x', secret: 'whsec_mine' }],
  ])('rejects %s with 400', async (_label, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('requires a user and scopes everything to the organization (404 like an unknown id)', async () => {
    const mine = (await create({ url: 'https://hooks.example.com/mine' })).body.data;
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/webhooks` })).status).toBe(401);
    expect((await create({ url: 'https://hooks.example.com/x' }, mallory.token)).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/projects/${projectId}/webhooks`, token: mallory.token })).status).toBe(404);
    for (const req of [
      { method: 'PATCH' as const, url: `/webhooks/${mine.id}`, body: { enabled: false } },
      { method: 'DELETE' as const, url: `/webhooks/${mine.id}` },
      { method: 'POST' as const, url: `/webhooks/${mine.id}/rotate-secret` },
      { method: 'POST' as const, url: `/webhooks/${mine.id}/test` },
      { method: 'GET' as const, url: `/webhooks/${mine.id}/deliveries` },
      { method: 'POST' as const, url: `/webhooks/${mine.id}/deliveries/whd_x/replay` },
      { method: 'PATCH' as const, url: '/webhooks/whk_unknown', body: { enabled: false } },
    ]) {
      const res = await h.request({ ...req, token: mallory.token });
      expect(res.status, `${req.method} ${req.url}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const after = await h.request({ method: 'GET', url: `/projects/${projectId}/webhooks`, token: alice.token });
    expect(after.body.data.find((e: { id: string }) => e.id === mine.id)).toMatchObject({ enabled: true });
  });

  it('updates url, events, description and enabled; a bad url is 400 and changes nothing', async () => {
    const endpoint = (await create({ url: 'https://hooks.example.com/u' })).body.data;
    h.clock.advance(1000);
    const res = await h.request({
      method: 'PATCH',
      url: `/webhooks/${endpoint.id}`,
      token: alice.token,
      body: { url: 'https://other.example.com/v', events: ['job.completed'], description: 'new' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ url: 'https://other.example.com/v', events: ['job.completed'], description: 'new' });
    expect(res.body.data.updatedAt > endpoint.updatedAt).toBe(true);
    expect(res.body.data).not.toHaveProperty('secret');
    const bad = await h.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, token: alice.token, body: { url: 'https://rebind.example.com/x' } });
    expect(bad.status).toBe(400);
    expect((await h.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, token: alice.token, body: {} })).status).toBe(400);
    const disabled = await h.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, token: alice.token, body: { enabled: false } });
    expect(disabled.body.data).toMatchObject({ enabled: false, disabledReason: { code: 'user' }, url: 'https://other.example.com/v' });
    const enabled = await h.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, token: alice.token, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('rotates the secret: a new one shown once, the previous one valid for the overlap', async () => {
    const endpoint = (await create({ url: 'https://hooks.example.com/r' })).body.data;
    const res = await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/rotate-secret`, token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(endpoint.secret);
    expect(res.body.data.previousSecretExpiresAt).toBe(new Date(h.clock.now().getTime() + 24 * 3_600_000).toISOString());
  });

  it('deletes an endpoint (204), then it is gone', async () => {
    const endpoint = (await create({ url: 'https://hooks.example.com/d' })).body.data;
    const res = await h.request({ method: 'DELETE', url: `/webhooks/${endpoint.id}`, token: alice.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.request({ method: 'DELETE', url: `/webhooks/${endpoint.id}`, token: alice.token })).status).toBe(404);
    expect((await h.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries`, token: alice.token })).status).toBe(404);
  });

  it('records webhook changes in the audit log', async () => {
    const endpoint = (await create({ url: 'https://hooks.example.com/audit' })).body.data;
    await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/rotate-secret`, token: alice.token });
    const audit = await h.request({ method: 'GET', url: '/audit?limit=100', token: alice.token });
    const actions = audit.body.data.filter((e: { resourceId: string }) => e.resourceId === endpoint.id).map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['webhook.create', 'webhook.rotate_secret']));
    expect(JSON.stringify(audit.body)).not.toContain(endpoint.secret.slice(6));
  });
});
