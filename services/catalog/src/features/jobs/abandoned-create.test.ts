import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reservation, ReserveBody } from '@crawl/contracts';
import { IDENTITY_HEADER } from '@crawl/service-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCatalogHarness, type CatalogHarness } from '../../testing/catalog-harness.ts';
import { FakeBilling } from '../../testing/fake-billing.ts';

/** A billing whose reserve waits until the test lets it go, and remembers the signal it was given. */
class SlowBilling extends FakeBilling {
  signals: Array<AbortSignal | undefined> = [];
  letGo = (): void => undefined;
  override async reserve(body: ReserveBody, context: { signal?: AbortSignal } = {}): Promise<Reservation> {
    this.signals.push(context.signal);
    await new Promise<void>((resolve) => {
      this.letGo = resolve;
    });
    context.signal?.throwIfAborted();
    return super.reserve(body);
  }
}

describe('a job create whose client goes away', () => {
  let h: CatalogHarness;
  let billing: SlowBilling;
  let port: number;

  beforeAll(async () => {
    billing = new SlowBilling();
    h = await startCatalogHarness({ billing });
    await h.process.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.process.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await h.close();
  });

  it('hands billing a signal that aborts when the client leaves, and stores no job', async () => {
    const alice = h.user();
    const projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id as string;
    const identity = {
      userId: alice.userId,
      organizationId: alice.organizationId,
      email: `${alice.userId}@example.com`,
      role: 'user' as const,
      audience: 'api' as const,
    };
    const body = JSON.stringify({ type: 'search', targets: ['abandoned keyword'] });
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/projects/${projectId}/jobs`,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [IDENTITY_HEADER]: h.context.tokens.signIdentity(identity) },
    });
    client.on('error', () => undefined);
    client.end(body);

    await vi.waitFor(() => expect(billing.signals).toHaveLength(1), { timeout: 5_000 });
    const signal = billing.signals[0];
    expect(signal?.aborted).toBe(false);
    client.destroy();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true), { timeout: 5_000 });
    billing.letGo();

    await vi.waitFor(async () => {
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/jobs`, token: alice.token });
      expect(list.status).toBe(200);
      expect(list.body.meta.total).toBe(0);
    });
    expect(billing.reservations.size).toBe(0);
  });
});
