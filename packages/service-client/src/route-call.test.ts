import { BillingInternalRoutes, CatalogInternalRoutes, type ClaimTargetResponse, type Reservation } from '@crawl/contracts';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InternalTokens } from './internal-tokens.ts';
import { ServiceClient } from './service-client.ts';
import type { ServiceRequest, ServiceTransport } from './service-transport.ts';

const tokens = new InternalTokens('route-call-test-secret-that-is-long-enough-012345');

/** A transport that records each request and answers every one with `answer`. */
function recording(answer: unknown): { transport: ServiceTransport; sent: ServiceRequest[] } {
  const sent: ServiceRequest[] = [];
  const transport: ServiceTransport = {
    kind: 'local',
    send: async (request) => {
      sent.push(request);
      return { status: 200, headers: {}, body: answer };
    },
  };
  return { transport, sent };
}

describe('ServiceClient.route', () => {
  it("takes the method and path from the route's spec and sends only the parts the route has", async () => {
    const { transport, sent } = recording({ data: { proceed: true, jobStatus: 'running', targetStatus: 'running' } });
    const client = new ServiceClient({ from: 'crawler-worker', target: 'catalog', transport, tokens });
    const answer = await client.route(CatalogInternalRoutes.claimTarget, { params: { jobId: 'job 1', index: 2 } }, { idempotent: true });
    expect(answer.data.proceed).toBe(true);
    expect(sent).toEqual([{ method: 'POST', path: '/internal/catalog/jobs/job%201/targets/2/claim', idempotent: true }]);
  });

  it('types the input and the answer from the schemas (checked by the typecheck)', () => {
    const client = new ServiceClient({ from: 'catalog', target: 'billing', transport: recording(null).transport, tokens });
    const claim = () => client.route(CatalogInternalRoutes.claimTarget, { params: { jobId: 'j', index: 0 } });
    expectTypeOf<Awaited<ReturnType<typeof claim>>>().toEqualTypeOf<ClaimTargetResponse>();
    const release = () => client.route(BillingInternalRoutes.release, { params: { jobId: 'j' }, body: { organizationId: 'o', reason: 'r' } });
    expectTypeOf<Awaited<ReturnType<typeof release>>['data']>().toEqualTypeOf<Reservation>();
    // @ts-expect-error a route with path parameters needs them
    void (() => client.route(BillingInternalRoutes.release, { body: { organizationId: 'o', reason: 'r' } }));
    // @ts-expect-error the body must match the route's body schema
    void (() => client.route(BillingInternalRoutes.settle, { body: { jobId: 'j' } }));
    // @ts-expect-error a route without a body takes none
    void (() => client.route(CatalogInternalRoutes.jobState, { params: { jobId: 'j' }, body: {} }));
  });
});
