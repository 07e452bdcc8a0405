import { WEBHOOK_TEST_LIMIT } from '@crawl/contracts';
import { startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '@crawl/catalog/testing/webhook-receiver';

// Issue: `POST /webhooks/:id/test` had no throttle: 40 calls made 40 outbound POSTs in 8 s.
describe('POST /webhooks/:id/test is throttled per endpoint', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let projectId: string;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    owner = await svc.registerUser();
    projectId = (await svc.request({ method: 'POST', url: '/projects', token: owner.token, body: { name: 'hooks' } })).body.data.id;
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  const newEndpoint = async (): Promise<string> => {
    const created = await svc.request({ method: 'POST', url: `/projects/${projectId}/webhooks`, token: owner.token, body: { url: receiver.url() } });
    expect(created.status).toBe(201);
    return created.body.data.id;
  };
  const test = (id: string, token: string) => svc.request({ method: 'POST', url: `/webhooks/${id}/test`, token });

  it('sends five tests a minute per endpoint, then answers 429 in the envelope with Retry-After', async () => {
    expect(WEBHOOK_TEST_LIMIT).toMatchObject({ max: 5, timeWindowMs: 60_000 });
    const endpoint = await newEndpoint();
    // Another tenant probing the id gets 404s (then 429s of its own) and spends none of the owner's budget.
    const stranger = await svc.registerUser();
    const probes: number[] = [];
    for (let i = 0; i < 6; i += 1) probes.push((await test(endpoint, stranger.token)).status);
    expect(probes).toEqual([404, 404, 404, 404, 404, 429]);

    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof test>> | undefined;
    for (let i = 0; i < 40; i += 1) {
      const res = await test(endpoint, owner.token);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    expect(limited?.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), details: [] } });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);

    // Another endpoint has its own budget.
    expect((await test(await newEndpoint(), owner.token)).status).toBe(202);

    const deliveries = await svc.request({ method: 'GET', url: `/webhooks/${endpoint}/deliveries`, token: owner.token });
    expect(deliveries.body.data).toHaveLength(5);
  });
});
