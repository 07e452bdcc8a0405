import { createServer, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violationOf } from './fuzz-checks.ts';
import type { ConcreteRequest } from './fuzz-world.ts';
import { exchange } from './http-exchange.ts';
import { resourceKindOf } from './openapi-operations.ts';
import { BODY_LIMIT_BYTES, planArbitrary } from './request-plans.ts';

/** The fuzz suite's own checks (it runs in pnpm test:fuzz): each failure it promises to catch is caught. */
describe('fuzz harness', () => {
  const request = (overrides: Partial<ConcreteRequest> = {}): ConcreteRequest => ({
    route: 'GET /jobs/{id}',
    method: 'GET',
    path: '/jobs/job_1',
    headers: {},
    body: undefined,
    caller: 'b',
    crossTenant: false,
    internal: false,
    ...overrides,
  });
  const answer = (status: number, body: unknown) => ({
    outcome: 'response' as const,
    status,
    headers: {},
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    ms: 1,
  });
  const envelope = { success: false, error: { code: 'NOT_FOUND', message: 'Job not found', details: [] } };

  it('flags a 5xx, a hang, no answer, a 2xx across tenants or on an internal route, and a 4xx outside the envelope, and nothing else', () => {
    expect(violationOf(request(), answer(500, envelope))).toBe('5xx');
    expect(violationOf(request(), answer(503, envelope))).toBe('5xx');
    expect(violationOf(request(), { outcome: 'timeout', ms: 10_000 })).toBe('hang');
    expect(violationOf(request(), { outcome: 'no-response', error: 'socket hang up', ms: 3 })).toBe('no-response');
    expect(violationOf(request(), { outcome: 'no-response', error: 'write EPIPE', ms: 3 })).toBe('no-response');
    // An upload over the body limit may be cut off (after the 413 is written); nothing else may.
    const oversized = request({ body: Buffer.alloc(BODY_LIMIT_BYTES + 1) });
    expect(violationOf(oversized, { outcome: 'no-response', error: 'write EPIPE', ms: 3 })).toBeUndefined();
    expect(violationOf(oversized, { outcome: 'no-response', error: 'read ECONNRESET', ms: 3 })).toBeUndefined();
    expect(violationOf(oversized, { outcome: 'no-response', error: 'socket hang up', ms: 3 })).toBe('no-response');
    expect(violationOf(oversized, { outcome: 'timeout', ms: 10_000 })).toBe('hang');
    expect(violationOf(request({ crossTenant: true }), answer(200, { data: {} }))).toBe('cross-tenant-2xx');
    expect(violationOf(request({ internal: true }), answer(201, { data: {} }))).toBe('internal-route-2xx');
    expect(violationOf(request(), answer(400, 'Invalid Preflight Request'))).toBe('not-an-envelope');
    expect(violationOf(request(), answer(404, { error: { code: 'NOT_FOUND', message: 'x' } }))).toBe('not-an-envelope');
    expect(violationOf(request({ crossTenant: true }), answer(404, envelope))).toBeUndefined();
    expect(violationOf(request(), answer(200, { data: {} }))).toBeUndefined();
    expect(violationOf(request({ method: 'HEAD' }), answer(404, ''))).toBeUndefined();
  });

  it('names the resource an id in a path stands for', () => {
    expect(resourceKindOf('/projects/{id}', 'id')).toBe('project');
    expect(resourceKindOf('/projects/{projectId}/jobs', 'projectId')).toBe('project');
    expect(resourceKindOf('/webhooks/{id}/deliveries/{deliveryId}/replay', 'deliveryId')).toBe('delivery');
    expect(resourceKindOf('/admin/organizations/{organizationId}/usage', 'organizationId')).toBe('organization');
    expect(resourceKindOf('/things/{id}', 'id')).toBeUndefined();
  });

  it('generates the same requests for the same seed (what FUZZ_SEED replays)', () => {
    const operation = {
      method: 'POST',
      path: '/projects/{projectId}/jobs',
      pathParameters: [{ name: 'projectId', in: 'path' as const, required: true, schema: { type: 'string' } }],
      queryParameters: [],
      body: { type: 'object', required: ['type'], properties: { type: { enum: ['search', 'details'] } } },
      secured: true,
    };
    const sample = (seed: number) => JSON.stringify(fc.sample(planArbitrary(operation, {}), { seed, numRuns: 50 }));
    expect(sample(7)).toBe(sample(7));
    expect(sample(7)).not.toBe(sample(8));
  });

  describe('against a server that never answers', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer(() => undefined);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('reports a hang once the per-request limit passes', async () => {
      const agent = new Agent({ keepAlive: true });
      const result = await exchange(url, agent, request(), 200);
      agent.destroy();
      expect(result.outcome).toBe('timeout');
      expect(result.ms).toBeGreaterThanOrEqual(190);
    });
  });
});
