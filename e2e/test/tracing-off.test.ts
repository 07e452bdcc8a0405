/**
 * Tracing is off by default: a process serving requests and queuing work without any OTEL_*
 * setting registers nothing with OpenTelemetry (no tracer provider, propagator or context
 * manager), adds no Fastify hooks, and queues tasks without trace context.
 */
import { tracingActive } from '@crawl/tracing';
import { registeredTelemetry } from '@crawl/tracing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '@crawl/server/testing';

describe('tracing off (no OTEL_* settings)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.process.close();
  });

  it('registers nothing with OpenTelemetry and puts nothing on the request path', async () => {
    const user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'Untraced' } });
    const created = await svc.request({
      method: 'POST',
      url: `/projects/${project.body.data.id}/jobs`,
      token: user.token,
      body: { type: 'search', targets: ['desk lamp'] },
    });
    expect(created.status).toBe(201);

    expect(tracingActive()).toBe(false);
    expect(registeredTelemetry()).toEqual({ tracerProvider: false, propagator: false, contextManager: false });
    expect(svc.app.hasPlugin('@fastify/otel')).toBe(false);
    expect(created.headers.traceparent).toBeUndefined();
  });
});
