import { ManualClock } from '@crawl/clock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebhookReceiver } from '../../testing/webhook-receiver.ts';
import { createSender } from './http-sender.ts';

describe('webhook HTTP sender', () => {
  let receiver: WebhookReceiver;
  let timers: ManualClock;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    timers = new ManualClock('2026-03-02T08:00:00.000Z');
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('connects to the pinned address, not to whatever the host name resolves to, and keeps the Host header', async () => {
    // `pinned.invalid` does not resolve anywhere: the request can only arrive through the pin.
    const send = createSender(timers);
    const result = await send({
      url: new URL(`http://pinned.invalid:${receiver.port}/hooks/a?x=1`),
      addresses: [{ address: '127.0.0.1', family: 4 }],
      headers: { 'webhook-id': 'evt_1' },
      body: '{"a":1}',
      timeoutMs: 5_000,
    });
    expect(result).toMatchObject({ statusCode: 200, body: 'ok', error: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]).toMatchObject({ method: 'POST', url: '/hooks/a?x=1', body: '{"a":1}' });
    expect(receiver.requests[0]?.headers).toMatchObject({ host: `pinned.invalid:${receiver.port}`, 'webhook-id': 'evt_1', 'content-type': 'application/json' });
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    receiver.answers.push({ status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } });
    const send = createSender(timers);
    const result = await send({ url: new URL(receiver.url()), addresses: [{ address: '127.0.0.1', family: 4 }], headers: {}, body: '{}', timeoutMs: 5_000 });
    expect(result.statusCode).toBe(302);
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook']);
  });

  it('gives up after the per-attempt timeout on the injected timers', async () => {
    receiver.answers.push('hang');
    const send = createSender(timers);
    const pending = send({ url: new URL(receiver.url()), addresses: [{ address: '127.0.0.1', family: 4 }], headers: {}, body: '{}', timeoutMs: 10_000 });
    await vi.waitUntil(() => receiver.hanging === 1 && timers.pending === 1, { timeout: 5_000, interval: 1, message: 'the hanging request' });
    timers.advance(9_999);
    expect(timers.pending).toBe(1);
    timers.advance(1);
    const result = await pending;
    expect(result).toMatchObject({ statusCode: null, error: 'timed out after 10000 ms' });
  });

  it('reports connection errors without a status', async () => {
    const port = receiver.port;
    await receiver.close();
    receiver = await WebhookReceiver.start();
    const send = createSender(timers);
    const result = await send({
      url: new URL(`http://127.0.0.1:${port}/hook`),
      addresses: [{ address: '127.0.0.1', family: 4 }],
      headers: {},
      body: '{}',
      timeoutMs: 5_000,
    });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(timers.pending).toBe(0);
  });
});
