import { createHmac, timingSafeEqual } from 'node:crypto';
import { ManualClock } from '@crawl/clock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { searchRecord } from '../../testing/result-records.ts';
import { WebhookReceiver, type ReceivedRequest } from '../../testing/webhook-receiver.ts';
import type { Resolver } from './address-guard.ts';
import type { DeliveryDoc } from './webhook-model.ts';
import type { WebhookOptions } from './webhook-service.ts';

/** The receiver-side verification from docs/webhooks.md, verbatim (independent of the signer). */
function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  const signatures = String(headers['webhook-signature'] ?? '');
  if (!id || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 5 * 60) return false; // too old or too new: a replay
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const TIMEOUT_MS = 10_000;
/** Deliveries run in the process: conditions are polled often and briefly. */
const POLL = { timeout: 5_000, interval: 1 };
const seconds = (clock: ManualClock) => Math.floor(clock.now().getTime() / 1000);

describe.each(testBackends())('webhook delivery to a local receiver ($name)', (backend) => {
  let h: CatalogHarness;
  let clock: ManualClock;
  let receiver: WebhookReceiver;
  let others: WebhookReceiver[] = [];
  let alice: HarnessUser;
  let projectId: string;

  async function start(options: { env?: Record<string, string>; webhooks?: WebhookOptions } = {}): Promise<void> {
    clock = new ManualClock('2026-03-02T08:00:00.000Z');
    receiver = await WebhookReceiver.start();
    h = await startCatalogHarness({
      clock,
      env: { ...backend.env(), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), ...options.env },
      webhooks: { timers: clock, random: () => 0.5, ...options.webhooks },
    });
    alice = h.user();
    projectId = await newProject(alice);
  }

  afterEach(async () => {
    // Release hanging requests first so in-flight attempts end before the store closes.
    await receiver?.close();
    for (const other of others) await other.close();
    others = [];
    clock?.advance(TIMEOUT_MS);
    await h?.close();
  });

  const newProject = async (user: HarnessUser) =>
    (await h.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'p' } })).body.data.id as string;
  const deliveries = () => h.context.store.collection<DeliveryDoc>('webhook_deliveries');

  async function register(body: Record<string, unknown> = {}, user = alice, project = projectId): Promise<{ id: string; secret: string }> {
    const res = await h.request({ method: 'POST', url: `/projects/${project}/webhooks`, token: user.token, body: { url: receiver.url(), ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  }

  async function finishJob(outcome: 'completed' | 'failed' | 'cancelled' = 'completed', user = alice, project = projectId): Promise<string> {
    const job = (await h.request({ method: 'POST', url: `/projects/${project}/jobs`, token: user.token, body: { type: 'search', targets: ['kw'] } })).body.data;
    if (outcome === 'cancelled') {
      expect((await h.request({ method: 'POST', url: `/jobs/${job.id}/cancel`, token: user.token })).status).toBe(200);
      return job.id;
    }
    await h.claim(job.id, 0);
    clock.advance(1000);
    await h.report(job.id, 0, outcome === 'completed' ? { status: 'success', items: [searchRecord()] } : { status: 'failed', reason: 'blocked', items: [] });
    return job.id;
  }

  /** One dispatch pass, then wait until every claimed attempt has been recorded. */
  async function flush(): Promise<void> {
    await h.catalog.webhooks.dispatch();
    await vi.waitUntil(async () => (await deliveries().count({ status: 'sending' })) === 0, { ...POLL, message: 'webhook attempts to finish' });
  }

  async function log(endpointId: string, user = alice) {
    const res = await h.request({ method: 'GET', url: `/webhooks/${endpointId}/deliveries`, token: user.token });
    expect(res.status).toBe(200);
    return res.body.data as Array<{
      id: string;
      eventId: string;
      eventType: string;
      status: string;
      attempts: any[];
      attemptCount: number;
      nextAttemptAt: string | null;
      lastError: string | null;
    }>;
  }

  async function endpointView(id: string, user = alice, project = projectId) {
    const res = await h.request({ method: 'GET', url: `/projects/${project}/webhooks`, token: user.token });
    return res.body.data.find((e: { id: string }) => e.id === id);
  }

  const ids = (requests: ReceivedRequest[]) => requests.map((r) => r.headers['webhook-id']);

  it('delivers a signed job.completed event that verifies; a tampered body, another secret and an old timestamp fail', async () => {
    await start();
    const endpoint = await register();
    const jobId = await finishJob('completed');
    await flush();

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests as [ReceivedRequest];
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(verifyWebhook(endpoint.secret, request.headers, request.body, seconds(clock))).toBe(true);
    expect(verifyWebhook(endpoint.secret, request.headers, request.body.replace('"completed"', '"failed"'), seconds(clock))).toBe(false);
    expect(verifyWebhook(endpoint.secret, request.headers, `${request.body} `, seconds(clock))).toBe(false);
    expect(verifyWebhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, request.headers, request.body, seconds(clock))).toBe(false);
    expect(verifyWebhook(endpoint.secret, request.headers, request.body, seconds(clock) + 6 * 60)).toBe(false);
    // Replaying the captured request later fails at the receiver.
    clock.advance(10 * 60_000);
    expect(verifyWebhook(endpoint.secret, request.headers, request.body, seconds(clock))).toBe(false);

    const event = JSON.parse(request.body);
    const job = (await h.request({ method: 'GET', url: `/jobs/${jobId}`, token: alice.token })).body.data;
    expect(event).toEqual({
      id: request.headers['webhook-id'],
      type: 'job.completed',
      timestamp: job.completedAt,
      data: { job, links: { job: `/jobs/${jobId}`, results: `/jobs/${jobId}/results`, export: `/jobs/${jobId}/export` } },
    });
    expect(event.id).toMatch(/^evt_/);
    expect(request.headers['webhook-timestamp']).toBe(String(Date.parse('2026-03-02T08:00:01.000Z') / 1000));

    const [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({
      eventId: event.id,
      eventType: 'job.completed',
      status: 'delivered',
      attemptCount: 1,
      nextAttemptAt: null,
      lastError: null,
    });
    expect(delivery?.attempts).toEqual([
      { attempt: 1, at: '2026-03-02T08:00:01.000Z', statusCode: 200, latencyMs: expect.any(Number), error: null, responseBody: 'ok', replay: false },
    ]);
  });

  it('sends job.failed and job.cancelled, only to subscribed endpoints of the same project and organization', async () => {
    await start();
    const failedOnly = await register({ events: ['job.failed'] });
    const all = await register();
    const otherProject = await newProject(alice);
    const elsewhere = await WebhookReceiver.start();
    others.push(elsewhere);
    await register({ url: elsewhere.url() }, alice, otherProject);
    const mallory = h.user();
    await register({ url: elsewhere.url() }, mallory, await newProject(mallory));

    const failedJob = await finishJob('failed');
    const cancelledJob = await finishJob('cancelled');
    await finishJob('completed');
    await flush();

    expect(elsewhere.requests).toHaveLength(0);
    expect((await log(failedOnly.id)).map((d) => d.eventType)).toEqual(['job.failed']);
    expect((await log(all.id)).map((d) => d.eventType).sort()).toEqual(['job.cancelled', 'job.completed', 'job.failed']);
    const byType = new Map(receiver.events().map((r) => [`${r.event.type}:${r.headers['webhook-id']}`, r.event]));
    expect(byType.size).toBe(3); // three events; job.failed went to two endpoints with the same id
    expect(receiver.events('job.failed')).toHaveLength(2);
    expect(new Set(ids(receiver.events('job.failed'))).size).toBe(1);
    expect(receiver.events('job.failed')[0]?.event.data.job).toMatchObject({ id: failedJob, status: 'failed' });
    expect(receiver.events('job.cancelled')[0]?.event.data.job).toMatchObject({ id: cancelledJob, status: 'cancelled' });
  });

  it('retries after 500s on the schedule with the same webhook-id, then succeeds: one logical event per job end', async () => {
    await start();
    receiver.answers.push({ status: 500, body: 'boom' }, { status: 500 });
    const endpoint = await register();
    const jobId = await finishJob('completed');
    // More job-end signals for the same job (a duplicate report, the maintenance finisher) add nothing.
    await h.report(jobId, 0, { status: 'success', items: [searchRecord()] });
    await h.catalog.progress.finishIfDone(jobId);
    await flush();
    await flush();

    expect(receiver.requests).toHaveLength(1);
    let [delivery] = await log(endpoint.id);
    const firstAt = clock.now().getTime();
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1, lastError: 'HTTP 500', nextAttemptAt: new Date(firstAt + 30_000).toISOString() });
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: 500, responseBody: 'boom', error: 'HTTP 500' });

    clock.advance(29_999);
    await flush();
    expect(receiver.requests).toHaveLength(1); // not due yet

    clock.advance(1);
    await flush();
    expect(receiver.requests).toHaveLength(2);
    [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 2, nextAttemptAt: new Date(clock.now().getTime() + 120_000).toISOString() });

    clock.advance(120_000);
    await flush();
    [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 3, nextAttemptAt: null });
    expect(delivery?.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);

    expect(receiver.requests).toHaveLength(3);
    expect(new Set(ids(receiver.requests)).size).toBe(1);
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    expect(await deliveries().count({ endpointId: endpoint.id })).toBe(1);
    const view = await endpointView(endpoint.id);
    expect(view).toMatchObject({ enabled: true, failingSince: null, consecutiveFailures: 0, lastSuccessAt: clock.now().toISOString() });
  });

  it('retries an attempt that timed out', async () => {
    await start();
    receiver.answers.push('hang');
    const endpoint = await register();
    await finishJob('completed');
    await h.catalog.webhooks.dispatch();
    await vi.waitUntil(() => receiver.hanging === 1 && clock.pending === 1, { ...POLL, message: 'the hanging attempt' });
    expect((await log(endpoint.id))[0]?.status).toBe('sending');
    clock.advance(TIMEOUT_MS);
    await vi.waitUntil(async () => (await deliveries().count({ status: 'sending' })) === 0, { ...POLL, message: 'the timed-out attempt to be recorded' });
    let [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1, lastError: `timed out after ${TIMEOUT_MS} ms` });
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: null, error: `timed out after ${TIMEOUT_MS} ms` });

    clock.advance(30_000);
    await flush();
    [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(receiver.requests).toHaveLength(2);
    expect(new Set(ids(receiver.requests)).size).toBe(1);
  });

  it('honours Retry-After', async () => {
    await start();
    receiver.answers.push({ status: 503, headers: { 'retry-after': '300' } });
    const endpoint = await register();
    await finishJob('completed');
    await flush();
    const [delivery] = await log(endpoint.id);
    expect(delivery?.nextAttemptAt).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    clock.advance(299_000);
    await flush();
    expect(receiver.requests).toHaveLength(1);
    clock.advance(1_000);
    await flush();
    expect(receiver.requests).toHaveLength(2);
    expect((await log(endpoint.id))[0]?.status).toBe('delivered');
  });

  it('gives up after 8 attempts over about 21 hours, every attempt in the log', async () => {
    await start();
    receiver.fallback = { status: 500 };
    const endpoint = await register();
    await finishJob('completed');
    const start0 = clock.now().getTime();
    await flush();
    for (let i = 0; i < 10; i += 1) {
      const [delivery] = await log(endpoint.id);
      if (!delivery?.nextAttemptAt) break;
      clock.set(delivery.nextAttemptAt);
      await flush();
    }
    const [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
    const span = Date.parse(delivery?.attempts.at(-1).at) - start0;
    expect(span).toBeGreaterThan(20 * 3_600_000);
    expect(span).toBeLessThan(24 * 3_600_000);
    expect(receiver.requests).toHaveLength(8);
    expect(new Set(ids(receiver.requests)).size).toBe(1);
    // 21 h of failures is below the default disable period (72 h): still enabled, failure visible.
    expect(await endpointView(endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 8, failingSince: new Date(start0).toISOString() });
  });

  it('a 410 disables the endpoint with a visible reason; nothing more is sent until it is enabled again', async () => {
    await start();
    receiver.answers.push({ status: 410 });
    const endpoint = await register();
    await finishJob('completed');
    await flush();
    expect((await log(endpoint.id))[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    const view = await endpointView(endpoint.id);
    expect(view).toMatchObject({ enabled: false, disabledReason: { code: 'gone' } });
    expect(view.disabledReason.message).toMatch(/410/);

    await finishJob('completed');
    await flush();
    expect(receiver.requests).toHaveLength(1);
    expect((await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/test`, token: alice.token })).status).toBe(409);

    await h.request({ method: 'PATCH', url: `/webhooks/${endpoint.id}`, token: alice.token, body: { enabled: true } });
    await finishJob('completed');
    await flush();
    expect(receiver.requests).toHaveLength(2);
    expect((await log(endpoint.id)).map((d) => d.status)).toEqual(['delivered', 'failed']);
    const failed = await h.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries?status=failed&limit=500`, token: alice.token });
    expect(failed.body.meta).toEqual({ total: 1, limit: 100, offset: 0 });
    expect(failed.body.data.map((d: { status: string }) => d.status)).toEqual(['failed']);
    expect((await h.request({ method: 'GET', url: `/webhooks/${endpoint.id}/deliveries?status=lost`, token: alice.token })).status).toBe(400);
  });

  it('disables an endpoint that failed continuously for WEBHOOK_DISABLE_AFTER_HOURS and says why', async () => {
    await start({ env: { WEBHOOK_DISABLE_AFTER_HOURS: '1' } });
    receiver.fallback = { status: 500 };
    const endpoint = await register();
    await finishJob('completed');
    const firstFailure = clock.now().toISOString();
    await flush();
    for (let i = 0; i < 10 && (await endpointView(endpoint.id)).enabled; i += 1) {
      const [delivery] = await log(endpoint.id);
      if (!delivery?.nextAttemptAt) break;
      clock.set(delivery.nextAttemptAt);
      await flush();
    }
    const view = await endpointView(endpoint.id);
    expect(view).toMatchObject({ enabled: false, disabledReason: { code: 'failing' }, failingSince: firstFailure });
    expect(view.disabledReason.message).toContain(`failed since ${firstFailure}`);
    // Attempts at 0, 30 s, 2.5 min, 12.5 min, 42.5 min and 2 h 42.5 min: the sixth crosses the hour.
    expect(receiver.requests).toHaveLength(6);
    expect((await log(endpoint.id))[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    const audit = await h.request({ method: 'GET', url: '/audit?action=webhook.disabled', token: alice.token });
    expect(audit.body.data).toEqual([expect.objectContaining({ resourceId: endpoint.id, metadata: expect.objectContaining({ reason: 'failing' }) })]);
  });

  it('a success resets the failing period', async () => {
    await start({ env: { WEBHOOK_DISABLE_AFTER_HOURS: '1' } });
    receiver.answers.push({ status: 500 }, { status: 200 });
    receiver.fallback = { status: 500 };
    const endpoint = await register();
    await finishJob('completed');
    await flush();
    clock.advance(30_000);
    await flush();
    expect(await endpointView(endpoint.id)).toMatchObject({ failingSince: null, consecutiveFailures: 0 });
    clock.advance(2 * 3_600_000);
    await finishJob('completed');
    await flush();
    expect(await endpointView(endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 1 });
  });

  it('sends nothing to a blocked address: a name that re-resolves to 127.0.0.1 after creation is refused at delivery', async () => {
    const table: Record<string, string> = { 'hooks.example.com': '93.184.216.34' };
    const resolver: Resolver = async (hostname) => [{ address: table[hostname] ?? '0.0.0.0', family: 4 }];
    await start({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }, webhooks: { resolver } });
    const direct = await h.request({ method: 'POST', url: `/projects/${projectId}/webhooks`, token: alice.token, body: { url: receiver.url() } });
    expect(direct.status).toBe(400);
    const endpoint = await register({ url: `http://hooks.example.com:${receiver.port}/hook` });
    table['hooks.example.com'] = '127.0.0.1'; // DNS rebinding towards the receiver
    await finishJob('completed');
    await flush();
    expect(receiver.requests).toHaveLength(0);
    const [delivery] = await log(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1 });
    expect(delivery?.lastError).toMatch(/^refused: .*loopback.*127\.0\.0\.1/);
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: null });
    // The answer flips to the metadata address: still nothing is sent.
    table['hooks.example.com'] = '169.254.169.254';
    clock.advance(30_000);
    await flush();
    expect(receiver.requests).toHaveLength(0);
    expect((await log(endpoint.id))[0]?.lastError).toMatch(/link-local/);
  });

  it('one organization with a hanging endpoint does not delay another organization', async () => {
    await start({ env: { WEBHOOK_DELIVERY_CONCURRENCY: '2', WEBHOOK_MAX_IN_FLIGHT_PER_ORG: '1' } });
    receiver.fallback = 'hang';
    const slow = await register();
    for (let i = 0; i < 4; i += 1) await finishJob('completed');
    await h.catalog.webhooks.dispatch();
    await vi.waitUntil(() => receiver.hanging === 1, { ...POLL, message: "the slow organization's first attempt" });

    const bob = h.user();
    const bobProject = await newProject(bob);
    const fast = await WebhookReceiver.start();
    others.push(fast);
    await register({ url: fast.url() }, bob, bobProject);
    await finishJob('completed', bob, bobProject);
    await h.catalog.webhooks.dispatch();
    await vi.waitUntil(() => fast.requests.length === 1, { ...POLL, message: "the other organization's delivery" });
    expect(receiver.hanging).toBe(1);
    expect(await deliveries().count({ endpointId: slow.id, status: 'sending' })).toBe(1);
    expect(await deliveries().count({ endpointId: slow.id, status: 'pending' })).toBe(3);
  });

  it('replays a delivery with the same webhook-id and a fresh signature', async () => {
    await start();
    const endpoint = await register();
    await finishJob('completed');
    await flush();
    const [delivery] = await log(endpoint.id);
    clock.advance(3_600_000);
    const res = await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/deliveries/${delivery?.id}/replay`, token: alice.token });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id: delivery?.id, status: 'pending', nextAttemptAt: clock.now().toISOString() });
    await flush();
    expect(receiver.requests).toHaveLength(2);
    expect(new Set(ids(receiver.requests)).size).toBe(1);
    const second = receiver.requests[1] as ReceivedRequest;
    expect(verifyWebhook(endpoint.secret, second.headers, second.body, seconds(clock))).toBe(true);
    const [after] = await log(endpoint.id);
    expect(after).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(after?.attempts.map((a) => a.replay)).toEqual([false, true]);
    expect((await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/deliveries/whd_nope/replay`, token: alice.token })).status).toBe(404);
  });

  it('sends a webhook.test event on request', async () => {
    await start();
    const endpoint = await register();
    const res = await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/test`, token: alice.token });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    await flush();
    const [request] = receiver.events('webhook.test');
    expect(request?.event).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id, projectId } });
    expect(verifyWebhook(endpoint.secret, request?.headers ?? {}, request?.body ?? '', seconds(clock))).toBe(true);
  });

  it('signs with the old and the new secret during the rotation overlap, then only with the new one', async () => {
    await start();
    const endpoint = await register();
    const rotated = (await h.request({ method: 'POST', url: `/webhooks/${endpoint.id}/rotate-secret`, token: alice.token })).body.data;
    await finishJob('completed');
    await flush();
    let request = receiver.requests.at(-1) as ReceivedRequest;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(rotated.secret, request.headers, request.body, seconds(clock))).toBe(true);
    expect(verifyWebhook(endpoint.secret, request.headers, request.body, seconds(clock))).toBe(true);

    clock.advance(24 * 3_600_000 + 1000);
    await finishJob('completed');
    await flush();
    request = receiver.requests.at(-1) as ReceivedRequest;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWebhook(rotated.secret, request.headers, request.body, seconds(clock))).toBe(true);
    expect(verifyWebhook(endpoint.secret, request.headers, request.body, seconds(clock))).toBe(false);
    expect((await endpointView(endpoint.id)).previousSecretExpiresAt).toBeNull();
  });

  it('sends schedule.failed when a scheduled run could not create its job', async () => {
    await start();
    h.billing.startingCredits = 0;
    const endpoint = await register({ events: ['schedule.failed'] });
    const schedule = (
      await h.request({
        method: 'POST',
        url: `/projects/${projectId}/schedules`,
        token: alice.token,
        body: { cron: '0 9 * * *', crawlConfig: { type: 'search', targets: ['kw'] } },
      })
    ).body.data;
    clock.set(schedule.nextRunAt);
    expect(await h.catalog.schedules.runDue()).toEqual([schedule.id]);
    await flush();
    const [request] = receiver.events('schedule.failed');
    expect(request?.event).toMatchObject({
      type: 'schedule.failed',
      timestamp: schedule.nextRunAt,
      data: { schedule: { id: schedule.id, projectId }, error: { code: 'INSUFFICIENT_CREDITS' } },
    });
    expect(verifyWebhook(endpoint.secret, request?.headers ?? {}, request?.body ?? '', seconds(clock))).toBe(true);
    expect(await log(endpoint.id)).toHaveLength(1);
  });

  it('survives a lost queue message: an attempt whose lease expired is claimed again', async () => {
    await start();
    const endpoint = await register();
    await finishJob('completed');
    await h.catalog.webhooks.fanOut();
    // Simulate a dispatcher that claimed the delivery and died before its message was processed.
    await deliveries().updateMany(
      { endpointId: endpoint.id },
      { $set: { status: 'sending', claim: 'lost', leaseUntil: new Date(clock.now().getTime() + 600_000).toISOString() } },
    );
    await h.catalog.webhooks.dispatch();
    expect(receiver.requests).toHaveLength(0);
    clock.advance(600_001);
    await flush();
    expect(receiver.requests).toHaveLength(1);
    expect((await log(endpoint.id))[0]?.status).toBe('delivered');
  });
});
