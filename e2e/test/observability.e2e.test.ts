/**
 * Operability end to end: `/metrics` on every process in both run modes, with counters that move
 * when a job runs against the marketplace simulator, label values that never hold an id, and a
 * job's log lines pulled by its id across processes, each carrying the organization and the
 * request id of the call that created the job (through the queue to the worker and back).
 *
 * The split run needs Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379) for the queue between
 * catalog and the worker; it uses its own key prefix and removes its keys afterwards. With CI=true
 * a missing Redis fails; elsewhere that part is skipped and says why.
 */
import { randomUUID } from 'node:crypto';
import { deleteKeys, openRedis } from '@crawl/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedis } from './reachable.ts';
import { freePort, spawnService, type SpawnedService } from './spawn-service.ts';

const SECRET = 'observability-secret-that-is-long-enough-0123456789';
const METRICS_TOKEN = 'metrics-token-0123456789';

/** Every family the operations guide lists; each process registers them all. */
const FAMILIES = [
  'crawl_http_request_duration_seconds',
  'crawl_queue_depth',
  'crawl_queue_wait_seconds',
  'crawl_jobs_created_total',
  'crawl_jobs_finished_total',
  'crawl_job_duration_seconds',
  'crawl_targets_finished_total',
  'crawl_upstream_requests_total',
  'crawl_upstream_egress_requests_total',
  'crawl_upstream_retries_total',
  'crawl_upstream_blocks_total',
  'crawl_upstream_response_bytes_total',
  'crawl_upstream_fetch_duration_seconds',
  'crawl_parser_pages_total',
  'crawl_parser_duration_seconds',
  'crawl_parser_fields_missing_total',
  'crawl_credits_reserved_total',
  'crawl_credits_captured_total',
  'crawl_credits_refunded_total',
  'crawl_webhook_attempts_total',
  'crawl_webhook_delivery_lag_seconds',
  'nodejs_eventloop_lag_seconds',
  'process_resident_memory_bytes',
];

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // the exposition format
  }
  return { status: res.status, headers: res.headers, body: parsed as any, text };
}

/** Sample lines `name{labels} value` of the exposition text. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] as string] = pair[2] as string;
    out.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return out;
}

function total(text: string, name: string, where: Record<string, string> = {}): number {
  return samples(text)
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** No label value may look like one of the service's ids (org_…, job_…, usr_…, prj_…) or a UUID. */
function expectBoundedLabels(text: string): void {
  for (const sample of samples(text)) {
    for (const value of Object.values(sample.labels)) {
      expect(value, `${sample.name} ${JSON.stringify(sample.labels)}`).not.toMatch(/^(org|job|usr|prj|whk)_|[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
  }
  const routes = new Set(
    samples(text)
      .filter((s) => s.name === 'crawl_http_request_duration_seconds_count')
      .map((s) => s.labels.route),
  );
  // Route templates, never the raw URL of a request.
  for (const route of routes) expect(route).not.toMatch(/job_|prj_|\?/);
}

function jsonLines(output: string): Array<Record<string, unknown>> {
  const lines = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a partial line
    }
  }
  return lines;
}

async function runJob(gateway: string, targets: string[]) {
  const email = `obs-${randomUUID()}@example.com`;
  const registered = await call(gateway, 'POST', '/auth/register', { email, password: 'a-long-enough-password' });
  expect(registered.status).toBe(201);
  const auth = { authorization: `Bearer ${registered.body.accessToken}` };
  const me = await call(gateway, 'GET', '/auth/me', undefined, auth);
  const orgId = me.body.data.organizationId as string;
  expect(orgId).toMatch(/^org_/);
  const project = await call(gateway, 'POST', '/projects', { name: 'Observability' }, auth);
  expect(project.status).toBe(201);
  const requestId = `obs-${randomUUID()}`;
  const created = await call(gateway, 'POST', `/projects/${project.body.data.id}/jobs`, { type: 'search', targets }, { ...auth, 'x-request-id': requestId });
  expect(created.status).toBe(201);
  expect(created.headers.get('x-request-id')).toBe(requestId);
  const jobId = created.body.data.id as string;
  let job;
  for (let i = 0; i < 300; i += 1) {
    job = await call(gateway, 'GET', `/jobs/${jobId}`, undefined, auth);
    if (['completed', 'failed', 'cancelled'].includes(job.body.data.status) && job.body.data.settled !== false) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(['completed', 'failed']).toContain(job?.body.data.status);
  return { orgId, jobId, requestId };
}

/**
 * Scrapes until `ready` holds (or 5 s pass, then the last scrape): the worker counts a target once
 * catalog has taken its report, which can be just after the job already reads as settled.
 */
async function scrapeUntil(scrape: () => Promise<string>, ready: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const text = await scrape();
    if (ready(text) || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until `check` passes on the concatenated output (log lines are written asynchronously). */
async function eventually(check: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function expectStory(lines: Array<Record<string, unknown>>, story: { orgId: string; jobId: string; requestId: string }, processes: number) {
  const ofJob = lines.filter((l) => l.jobId === story.jobId);
  const messages = ofJob.map((l) => l.msg);
  for (const event of ['job created', 'job started', 'target crawled', 'job finished', 'job settled']) expect(messages).toContain(event);
  for (const line of ofJob) {
    expect(line.orgId, JSON.stringify(line)).toBe(story.orgId);
    expect(line.reqId, JSON.stringify(line)).toBe(story.requestId);
  }
  // The worker's lines came through the queue and still carry the creating request's id.
  const crawled = ofJob.filter((l) => l.msg === 'target crawled');
  expect(crawled.length).toBeGreaterThan(0);
  expect(new Set(ofJob.map((l) => l.service)).size).toBe(processes);
}

describe('observability of the all-in-one', () => {
  const running: SpawnedService[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
  });

  it('serves /metrics on the public port only with the token, with counters that move when a job runs, and logs the job’s story', async () => {
    const all = await spawnService({
      env: { JWT_SECRET: SECRET, MARKETPLACE: 'simulator', METRICS_TOKEN, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      waitFor: '/ready',
    });
    running.push(all);
    expect((await call(all.url, 'GET', '/metrics')).status).toBe(401);
    const before = await call(all.url, 'GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain/);
    for (const family of FAMILIES) expect(before.text).toContain(`# TYPE ${family} `);

    const story = await runJob(all.url, ['desk lamp', 'blocked keyword']);
    const text = await scrapeUntil(
      async () => (await call(all.url, 'GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` })).text,
      (scraped) => total(scraped, 'crawl_targets_finished_total') >= 2,
    );
    expect(total(text, 'crawl_jobs_created_total', { type: 'search' }) - total(before.text, 'crawl_jobs_created_total', { type: 'search' })).toBe(1);
    expect(total(text, 'crawl_jobs_finished_total', { type: 'search' })).toBe(1);
    expect(total(text, 'crawl_job_duration_seconds_count')).toBe(1);
    expect(total(text, 'crawl_targets_finished_total', { outcome: 'success', reason: 'none' })).toBe(1);
    expect(total(text, 'crawl_targets_finished_total', { outcome: 'failed', reason: 'blocked' })).toBe(1);
    expect(total(text, 'crawl_upstream_requests_total', { status: '2xx' })).toBeGreaterThan(0);
    expect(total(text, 'crawl_upstream_blocks_total')).toBeGreaterThan(0);
    expect(total(text, 'crawl_upstream_response_bytes_total')).toBeGreaterThan(0);
    expect(total(text, 'crawl_upstream_egress_requests_total', { egress: 'direct' })).toBeGreaterThan(0);
    expect(total(text, 'crawl_parser_pages_total', { kind: 'search', outcome: 'ok' })).toBeGreaterThan(0);
    expect(total(text, 'crawl_credits_reserved_total')).toBeGreaterThan(0);
    expect(total(text, 'crawl_credits_captured_total')).toBeGreaterThan(0);
    expect(total(text, 'crawl_credits_refunded_total')).toBeGreaterThan(0);
    expect(total(text, 'crawl_queue_wait_seconds_count', { queue: 'crawl-targets' })).toBe(2);
    expect(total(text, 'crawl_queue_depth', { queue: 'crawl-targets', state: 'waiting' })).toBe(0);
    expect(total(text, 'crawl_http_request_duration_seconds_count', { route: '/projects/:projectId/jobs', method: 'POST', status_class: '2xx' })).toBe(1);
    expect(total(text, 'crawl_http_request_duration_seconds_count', { route: '/jobs/:id', method: 'GET' })).toBeGreaterThan(0);
    expectBoundedLabels(text);

    await eventually(() => expectStory(jsonLines(all.output()), story, 1));
    // Probes and internal calls stay at debug: no request line for them at info.
    const requestLines = jsonLines(all.output()).filter((l) => l.msg === 'request completed');
    expect(requestLines.some((l) => typeof l.url === 'string' && (l.url.startsWith('/internal') || l.url === '/ready'))).toBe(false);
  });
});

const { url: redisUrl, up: redisUp } = await testRedis('the split observability test');

describe.skipIf(!redisUp)(`observability of split services${redisUp ? '' : ` (skipped: no Redis at ${redisUrl}; set TEST_REDIS_URL)`}`, () => {
  const running: SpawnedService[] = [];
  const prefix = `crawl-obs-${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    const redis = openRedis(redisUrl, { name: 'observability-cleanup' });
    try {
      await deleteKeys(redis, `${prefix}:*`);
    } finally {
      redis.disconnect();
    }
  });

  it('answers /metrics on each service (the gateway on its metrics port) and tells a job’s story across processes by its id', async () => {
    const common = { JWT_SECRET: SECRET, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
    const backendPort = await freePort();
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    const urls = { AUTH_URL: backendUrl, BILLING_URL: backendUrl, CATALOG_URL: backendUrl };
    const backend = await spawnService({
      args: ['--target=auth,billing,catalog'],
      env: { ...common, ...urls, RATE_SETTING_REFRESH_MS: '60000' },
      port: backendPort,
    });
    running.push(backend);
    const worker = await spawnService({ args: ['--target=crawler-worker'], env: { ...common, ...urls, MARKETPLACE: 'simulator' }, waitFor: '/ready' });
    running.push(worker);
    const gatewayMetricsPort = await freePort();
    const gateway = await spawnService({ args: ['--target=gateway'], env: { ...common, ...urls, METRICS_PORT: String(gatewayMetricsPort) } });
    running.push(gateway);

    // The gateway's public port has no /metrics; its metrics port has nothing else.
    expect((await call(gateway.url, 'GET', '/metrics')).status).toBe(404);
    const gatewayMetrics = `http://127.0.0.1:${gatewayMetricsPort}`;
    expect((await call(gatewayMetrics, 'GET', '/health')).status).toBe(404);

    const story = await runJob(gateway.url, ['usb cable']);

    const scrape = async (base: string) => {
      const res = await call(base, 'GET', '/metrics');
      expect(res.status).toBe(200);
      for (const family of FAMILIES) expect(res.text).toContain(`# TYPE ${family} `);
      expectBoundedLabels(res.text);
      return res.text;
    };
    const [gatewayText, backendText] = [await scrape(gatewayMetrics), await scrape(backend.url)];
    const workerText = await scrapeUntil(
      () => scrape(worker.url),
      (scraped) => total(scraped, 'crawl_targets_finished_total') >= 1,
    );
    expect(total(gatewayText, 'crawl_http_request_duration_seconds_count', { route: '/projects/:projectId/jobs', method: 'POST', status_class: '2xx' })).toBe(
      1,
    );
    expect(total(backendText, 'crawl_jobs_created_total', { type: 'search' })).toBe(1);
    expect(total(backendText, 'crawl_jobs_finished_total', { type: 'search' })).toBe(1);
    expect(total(backendText, 'crawl_credits_captured_total')).toBeGreaterThan(0);
    expect(total(workerText, 'crawl_targets_finished_total', { outcome: 'success' })).toBe(1);
    expect(total(workerText, 'crawl_upstream_requests_total', { status: '2xx' })).toBeGreaterThan(0);
    expect(total(workerText, 'crawl_parser_pages_total', { kind: 'search', outcome: 'ok' })).toBeGreaterThan(0);
    expect(total(workerText, 'crawl_queue_wait_seconds_count', { queue: 'crawl-targets' })).toBe(1);
    // The shared queue's depth is reported by every process that opened it.
    expect(backendText).toMatch(/crawl_queue_depth\{queue="crawl-targets",state="waiting"\} 0/);

    // Pulled by the job's id from both processes: one request id from the API call to settlement.
    await eventually(() => expectStory([...jsonLines(backend.output()), ...jsonLines(worker.output())], story, 2));
  });
});
