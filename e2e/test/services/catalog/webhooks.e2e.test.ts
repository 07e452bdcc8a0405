import { CatalogPaths } from '@crawl/contracts';
import { ManualClock } from '@crawl/clock';
import { startTestService, type TestService } from '@crawl/server/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testBackends, type TestBackend } from '@crawl/catalog/testing/backends';
import { searchRecord } from '@crawl/catalog/testing/result-records';
import { WebhookReceiver } from '@crawl/catalog/testing/webhook-receiver';
import { verify } from '@crawl/catalog/webhook-signer';

/**
 * The whole service in one process (gateway JWT, auth, real billing, catalog with its own
 * dispatch loop): register an endpoint through the public API, finish a job, receive the event.
 */
/** Storage backends, plus the BullMQ queue on the embedded store when TEST_REDIS_URL is set. */
function backends(): TestBackend[] {
  const redis = process.env.TEST_REDIS_URL;
  if (!redis) return testBackends();
  const bullmq = { name: 'embedded', env: () => ({ REDIS_URL: redis, REDIS_PREFIX: `wh${randomUUID().slice(0, 8)}` }) } as TestBackend;
  return [...testBackends(), Object.assign(bullmq, { label: 'embedded + BullMQ' })];
}

describe.each(backends().map((b) => ({ ...b, label: (b as { label?: string }).label ?? b.name })))('webhooks through the gateway ($label)', (backend) => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  const clock = new ManualClock('2026-03-02T08:00:00.000Z');

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    svc = await startTestService({
      clock,
      env: { SCHEDULER_TICK_MS: '3600000', WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...backend.env() },
    });
  });
  afterAll(async () => {
    await receiver.close();
    await svc.close();
  });

  it('a registered endpoint receives one verifiable job.completed event without anyone driving the dispatcher', async () => {
    const user = await svc.registerUser();
    const project = (await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'hooks' } })).body.data;
    const created = await svc.request({ method: 'POST', url: `/projects/${project.id}/webhooks`, token: user.token, body: { url: receiver.url() } });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect((await svc.request({ method: 'POST', url: `/projects/${project.id}/webhooks`, body: { url: receiver.url() } })).status).toBe(401);

    const job = (
      await svc.request({ method: 'POST', url: `/projects/${project.id}/jobs`, token: user.token, body: { type: 'search', targets: ['usb cable'] } })
    ).body.data;
    const worker = svc.internalHeaders('crawler-worker');
    await svc.request({ method: 'POST', url: CatalogPaths.claimTarget(job.id, 0), headers: worker, body: {} });
    await svc.request({
      method: 'POST',
      url: CatalogPaths.reportTarget(job.id, 0),
      headers: worker,
      body: { status: 'success', items: [searchRecord({ keyword: 'usb cable' })] },
    });

    await vi.waitUntil(() => receiver.requests.length === 1, { timeout: 5_000, interval: 1, message: 'the job.completed delivery' });
    const [request] = receiver.requests;
    expect(verify(endpoint.secret, request?.headers as Record<string, string>, request?.body ?? '', clock.now())).toBe(true);
    const event = JSON.parse(request?.body ?? '{}');
    const current = (await svc.request({ method: 'GET', url: `/jobs/${job.id}`, token: user.token })).body.data;
    expect(event).toMatchObject({ type: 'job.completed', data: { job: current } });

    await expect
      .poll(async () => (await svc.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries`, token: user.token })).body.data[0]?.status, {
        timeout: 5_000,
        interval: 1,
        message: 'the delivery log',
      })
      .toBe('delivered');
    const other = await svc.registerUser();
    expect((await svc.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries`, token: other.token })).status).toBe(404);
  });
});
