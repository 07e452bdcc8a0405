/**
 * Tracing across split services, started the way the binary starts (the loader hook, the
 * standard OTEL_* settings, the OTLP exporter): the gateway, a process with auth, billing and
 * catalog, and a crawler-worker export to an OTLP/JSON receiver in this test. One trace runs from
 * the gateway's create request through the forwarded request, the Redis queue, the worker's crawl
 * and report to billing's settlement, each process under its own service name.
 *
 * Needs Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379) for the queue between catalog and
 * the worker; it uses its own key prefix and removes its keys afterwards. With CI=true a missing
 * Redis fails; elsewhere the test is skipped and says why.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { deleteKeys, openRedis } from '@crawl/redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testRedis } from './reachable.ts';
import { freePort, spawnService, type SpawnedService } from './spawn-service.ts';

const SECRET = 'tracing-split-secret-that-is-long-enough-0123456789';

interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

/** OTLP span kinds (opentelemetry-proto). */
const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 };

/** An OTLP/HTTP receiver for JSON-encoded traces (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
async function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const data = JSON.parse(body) as { resourceSpans?: any[] };
        for (const resource of data.resourceSpans ?? []) {
          const service = resource.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                service,
                scope: scope.scope.name,
                name: span.name,
                kind: span.kind,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                attributes: Object.fromEntries(span.attributes.map((a: any) => [a.key, Object.values(a.value)[0]])),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, spans, server };
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

const { url: redisUrl, up: redisUp } = await testRedis('the split tracing test');

describe.skipIf(!redisUp)(`tracing across split services${redisUp ? '' : ` (skipped: no Redis at ${redisUrl}; set TEST_REDIS_URL)`}`, () => {
  const running: SpawnedService[] = [];
  let receiver: Server | undefined;
  const prefix = `crawl-trace-${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    receiver?.close();
    const redis = openRedis(redisUrl, { name: 'tracing-cleanup' });
    try {
      await deleteKeys(redis, `${prefix}:*`);
    } finally {
      redis.disconnect();
    }
  });

  it('exports one connected trace from the gateway’s create request to billing’s settlement, each process under its own name', async () => {
    const otlp = await otlpReceiver();
    receiver = otlp.server;
    const common = {
      JWT_SECRET: SECRET,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const backendPort = await freePort();
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    const urls = { AUTH_URL: backendUrl, BILLING_URL: backendUrl, CATALOG_URL: backendUrl };
    running.push(
      await spawnService({ args: ['--target=auth,billing,catalog'], env: { ...common, ...urls, RATE_SETTING_REFRESH_MS: '60000' }, port: backendPort }),
    );
    running.push(await spawnService({ args: ['--target=crawler-worker'], env: { ...common, ...urls, MARKETPLACE: 'simulator' }, waitFor: '/ready' }));
    const gateway = await spawnService({ args: ['--target=gateway'], env: { ...common, ...urls } });
    running.push(gateway);

    const registered = await call(gateway.url, 'POST', '/auth/register', { email: `trace-${randomUUID()}@example.com`, password: 'a-long-enough-password' });
    expect(registered.status).toBe(201);
    const token = registered.body.accessToken as string;
    const project = await call(gateway.url, 'POST', '/projects', { name: 'Traced' }, token);
    // The client sends its own trace context: the gateway continues it, and forwards this hop's, not a second copy.
    const client = { traceId: randomUUID().replaceAll('-', ''), spanId: randomUUID().replaceAll('-', '').slice(0, 16) };
    const traceparent = `00-${client.traceId}-${client.spanId}-01`;
    const created = await call(gateway.url, 'POST', `/projects/${project.body.data.id}/jobs`, { type: 'search', targets: ['usb cable'] }, token, {
      traceparent,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.data.id as string;

    const spans = otlp.spans;
    const create = () => spans.find((s) => s.service === 'crawl-gateway' && s.kind === KIND.server && s.name === 'POST /projects/:projectId/jobs');
    await vi.waitFor(
      () => {
        expect(create()).toBeDefined();
        expect(spans.some((s) => s.traceId === create()?.traceId && s.name === 'POST /internal/billing/settlements')).toBe(true);
        // The worker's task span ends after its report, which can settle the job first: wait for its export too.
        expect(spans.some((s) => s.traceId === create()?.traceId && s.service === 'crawl-crawler-worker' && s.name === 'process crawl-targets')).toBe(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    const root = create() as ReceivedSpan;
    expect([root.traceId, root.parentSpanId]).toEqual([client.traceId, client.spanId]);
    const trace = spans.filter((s) => s.traceId === root.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestors = (span: ReceivedSpan) => {
      const chain: ReceivedSpan[] = [];
      for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.push(parent);
      return chain;
    };
    const one = (service: string, name: string, kind?: number) => {
      const found = trace.filter((s) => s.service === service && s.name === name && (kind === undefined || s.kind === kind));
      expect(found, `${service}: ${name}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };

    // Gateway → catalog over HTTP: the forwarded request's server span continues the gateway's trace.
    const catalogCreate = one('crawl-auth+billing+catalog', 'POST /projects/:projectId/jobs', KIND.server);
    // Catalog → Redis queue → worker: the consumer's parent is the producer's span in the task.
    const send = one('crawl-auth+billing+catalog', 'send crawl-targets', KIND.producer);
    const processed = one('crawl-crawler-worker', 'process crawl-targets', KIND.consumer);
    expect(processed.parentSpanId).toBe(send.spanId);
    expect(processed.attributes['crawl.job.id']).toBe(jobId);
    // The BullMQ add went through ioredis under the producer span (the loader hook instrumented it).
    expect(trace.some((s) => s.scope === '@opentelemetry/instrumentation-ioredis' && ancestors(s).includes(send))).toBe(true);
    // Worker → catalog over HTTP: the report, and the settlement it triggers in billing.
    const report = one('crawl-auth+billing+catalog', 'POST /internal/catalog/jobs/:jobId/targets/:index/result', KIND.server);
    const settle = one('crawl-auth+billing+catalog', 'POST /internal/billing/settlements');
    expect(ancestors(report)).toContain(processed);
    expect(ancestors(settle)).toContain(report);
    // The crawl itself: the worker's fetches from the marketplace simulator.
    expect(trace.some((s) => s.service === 'crawl-crawler-worker' && s.kind === KIND.client && s.name === 'GET' && ancestors(s).includes(processed))).toBe(
      true,
    );

    for (const span of [catalogCreate, send, processed, report, settle]) expect(ancestors(span)).toContain(root);
    for (const span of trace) expect(span.name).not.toMatch(/(org|job|usr|prj|whk)_|[0-9a-f]{8}-[0-9a-f]{4}-|@/);
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['crawl-gateway', 'crawl-auth+billing+catalog', 'crawl-crawler-worker']));
  }, 90_000);
});
