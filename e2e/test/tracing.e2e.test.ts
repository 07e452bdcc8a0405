/**
 * Tracing end to end in the all-in-one: a job crawls the marketplace simulator and every span of
 * its story (the create request, the queue hop, each target's claim, upstream fetch and report,
 * the settlement) belongs to one trace that the create request's span is an ancestor of. The
 * spans are kept in memory (startInMemoryTracing); the split run over real processes and the
 * OTLP exporter is tracing-split.e2e.test.ts.
 */
import { SERVICE_NAMES } from '@crawl/contracts';
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { registeredTelemetry, startInMemoryTracing, type TracedSpan } from '@crawl/tracing/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '@crawl/server/testing';

const tracing = await startInMemoryTracing('crawl-data-service');

/** The span's ancestors, nearest first, among the spans finished so far. */
function ancestors(span: TracedSpan, spans: TracedSpan[]): TracedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: TracedSpan[] = [];
  for (let parent = span.parentSpanId && byId.get(span.parentSpanId); parent; parent = parent.parentSpanId && byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

describe('one trace from creating a job to its settlement (all-in-one)', () => {
  let sim: Simulator;
  let svc: TestService;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 11 });
    svc = await startTestService({
      targets: SERVICE_NAMES,
      env: {
        MARKETPLACE: 'live',
        MARKETPLACE_BASE_URL: sim.url,
        MARKETPLACE_EXTRA_HOSTS: sim.host,
        UPSTREAM_RATE_PER_MINUTE: '6000',
        UPSTREAM_BURST: '20',
        MAX_FETCH_ATTEMPTS: '1',
        FETCH_BACKOFF_MS: '20',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.process.close();
    await sim?.close();
  });

  it('links create → queue → crawl → report → settle, names spans after routes and queues, and keeps ids in attributes', async () => {
    const user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'Traced' } });
    expect(project.status).toBe(201);
    const created = await svc.request({
      method: 'POST',
      url: `/projects/${project.body.data.id}/jobs`,
      token: user.token,
      body: { type: 'search', targets: ['desk lamp', 'blocked chair'] },
    });
    expect(created.status).toBe(201);
    const jobId = created.body.data.id as string;
    await vi.waitFor(
      async () => {
        const job = await svc.request({ method: 'GET', url: `/jobs/${jobId}`, token: user.token });
        expect(job.body.data.status).toBe('completed');
        expect(job.body.data.settled).not.toBe(false);
        expect((await tracing.spans()).some((s) => s.name === 'POST /internal/billing/settlements')).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );

    const spans = await tracing.spans();
    const create = spans.filter((s) => s.name === 'POST /projects/:projectId/jobs');
    expect(create).toHaveLength(1);
    const root = create[0] as TracedSpan;
    expect(root.kind).toBe('server');
    expect(root.attributes['http.route']).toBe('/projects/:projectId/jobs');
    const trace = spans.filter((s) => s.traceId === root.traceId);
    const descendsFromCreate = (span: TracedSpan) => ancestors(span, trace).some((a) => a.spanId === root.spanId);

    // The queue hop: one producer span per target under the create request, one consumer span
    // per target continuing it, each naming the job and organization in attributes.
    const sent = trace.filter((s) => s.name === 'send crawl-targets');
    const processed = trace.filter((s) => s.name === 'process crawl-targets');
    expect(sent).toHaveLength(2);
    expect(processed).toHaveLength(2);
    for (const span of sent) expect([span.kind, descendsFromCreate(span)]).toEqual(['producer', true]);
    for (const span of processed) {
      expect(span.kind).toBe('consumer');
      expect(sent.map((s) => s.spanId)).toContain(span.parentSpanId);
      expect(span.attributes).toMatchObject({
        'messaging.destination.name': 'crawl-targets',
        'crawl.job.id': jobId,
        'crawl.organization.id': user.organizationId,
      });
    }

    // The crawl: each target's claim, its upstream fetches (undici) and its report run under its task.
    const underTask = (span: TracedSpan) => ancestors(span, trace).some((a) => processed.some((p) => p.spanId === a.spanId));
    const claims = trace.filter((s) => s.name === 'POST /internal/catalog/jobs/:jobId/targets/:index/claim');
    const reports = trace.filter((s) => s.name === 'POST /internal/catalog/jobs/:jobId/targets/:index/result');
    const fetches = trace.filter((s) => s.kind === 'client' && s.attributes['server.port'] === Number(new URL(sim.url).port));
    expect(claims).toHaveLength(2);
    expect(reports).toHaveLength(2);
    expect(fetches.length).toBeGreaterThanOrEqual(2);
    for (const span of [...claims, ...reports, ...fetches]) expect(underTask(span), span.name).toBe(true);
    expect(fetches.every((s) => s.name === 'GET')).toBe(true);

    // Settlement: billing's route, called while the last report was served.
    const settles = trace.filter((s) => s.name === 'POST /internal/billing/settlements');
    expect(settles).toHaveLength(1);
    expect(reports.map((r) => r.spanId)).toContain(ancestors(settles[0] as TracedSpan, trace).find((a) => a.name.endsWith('/result'))?.spanId);
    expect(descendsFromCreate(settles[0] as TracedSpan)).toBe(true);

    // Span names are routes and queues: no id, e-mail or token in any of them.
    for (const span of spans) {
      expect(span.name).not.toMatch(/(org|job|usr|prj|whk)_|[0-9a-f]{8}-[0-9a-f]{4}-|@/);
      expect(span.name).not.toContain(user.token);
      expect(span.service).toBe('crawl-data-service');
    }
    expect(registeredTelemetry()).toEqual({ tracerProvider: true, propagator: true, contextManager: true });
    expect(svc.app.hasPlugin('@fastify/otel')).toBe(true);
    // Probes are not traced.
    await svc.request({ method: 'GET', url: '/health' });
    expect((await tracing.spans()).some((s) => s.attributes['http.route'] === '/health')).toBe(false);
  });
});
