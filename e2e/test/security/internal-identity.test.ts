import type { Identity } from '@crawl/contracts';
import { IDENTITY_HEADER } from '@crawl/service-client';
import { startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The all-in-one's public port: an identity header signed with the internal secret (leaked, or
 * the process's own) counts for nothing on a public route; only the Bearer token does.
 */
describe('internal identity on the public port', () => {
  let svc: TestService;
  let alice: TestUser;
  let bob: TestUser;
  const identityOf = (user: TestUser, role: Identity['role'] = 'user'): Identity => ({
    userId: user.userId,
    organizationId: user.organizationId,
    email: user.email,
    role,
    audience: 'api',
  });
  const signed = (identity: Identity) => ({ [IDENTITY_HEADER]: svc.context('gateway').tokens.signIdentity(identity) });

  beforeAll(async () => {
    svc = await startTestService();
    alice = await svc.registerUser();
    bob = await svc.registerUser();
  });
  afterAll(async () => {
    await svc.close();
  });

  it("a Bearer token and another user's signed identity: the token's user is the caller", async () => {
    const me = await svc.request({ method: 'GET', url: '/auth/me', token: alice.token, headers: signed(identityOf(bob)) });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(alice.email);
  });

  it('a signed identity without a Bearer token is not a caller', async () => {
    const me = await svc.request({ method: 'GET', url: '/auth/me', headers: signed(identityOf(bob)) });
    expect(me.status).toBe(401);
    expect(me.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Missing bearer token' });
    expect((await svc.request({ method: 'GET', url: '/projects', headers: signed(identityOf(bob)) })).status).toBe(401);
  });

  it('a signed admin identity does not make a user an admin', async () => {
    const stats = await svc.request({ method: 'GET', url: '/admin/queue/stats', token: alice.token, headers: signed(identityOf(alice, 'admin')) });
    expect(stats.status).toBe(403);
  });

  it('internal routes still take the identity next to a service token', async () => {
    const project = await svc.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'internal identity' } });
    expect(project.status).toBe(201);
    const job = await svc.request({
      method: 'POST',
      url: `/projects/${project.body.data.id}/jobs`,
      token: alice.token,
      body: { type: 'search', targets: ['usb cable'] },
    });
    expect(job.status).toBe(201);
    const state = await svc.request({
      method: 'GET',
      url: `/internal/catalog/jobs/${job.body.data.id}/state`,
      headers: { ...svc.internalHeaders('crawler-worker'), ...signed(identityOf(alice)) },
    });
    expect(state.status).toBe(200);
    // Without the service token the same header opens nothing.
    expect((await svc.request({ method: 'GET', url: `/internal/catalog/jobs/${job.body.data.id}/state`, headers: signed(identityOf(alice)) })).status).toBe(
      401,
    );
  });
});
