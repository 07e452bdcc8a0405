import { startTestService, TEST_PASSWORD, type TestResponse, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Answers that carry tokens or secrets must never be kept by a browser, proxy or CDN. */
describe('Cache-Control on answers that carry secrets', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(async () => {
    await svc.close();
  });

  const expectNoStore = (response: TestResponse, status: number) => {
    expect(response.status, response.text).toBe(status);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  };

  it('register, login, login-handoff and verify-handoff answer no-store, failures included', async () => {
    const email = `no-store-${Date.now()}@example.com`;
    expectNoStore(await svc.request({ method: 'POST', url: '/auth/register', body: { email, password: TEST_PASSWORD } }), 201);
    expectNoStore(await svc.request({ method: 'POST', url: '/auth/login', body: { email, password: TEST_PASSWORD } }), 200);
    expectNoStore(await svc.request({ method: 'POST', url: '/auth/login', body: { email, password: 'a-wrong-password-here' } }), 401);
    const handoff = await svc.request({ method: 'POST', url: '/auth/login-handoff', body: { email, password: TEST_PASSWORD } });
    expectNoStore(handoff, 200);
    expectNoStore(await svc.request({ method: 'POST', url: '/auth/verify-handoff', body: { handoffToken: handoff.body.handoffToken } }), 200);
  });

  it("a webhook endpoint's signing secret, on create and on rotate, answers no-store", async () => {
    const user = await svc.registerUser();
    const project = (await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'hooks' } })).body.data;
    const created = await svc.request({ method: 'POST', url: `/projects/${project.id}/webhooks`, token: user.token, body: { url: 'http://127.0.0.1:9/hook' } });
    expectNoStore(created, 201);
    expect(created.body.data.secret).toEqual(expect.any(String));
    expectNoStore(await svc.request({ method: 'POST', url: `/webhooks/${created.body.data.id}/rotate-secret`, token: user.token }), 200);
  });

  it('answers without secrets keep their caching rules', async () => {
    const user = await svc.registerUser();
    const me = await svc.request({ method: 'GET', url: '/auth/me', token: user.token });
    expect(me.status).toBe(200);
    expect(me.headers['cache-control']).toBeUndefined();
  });
});
