import { createTestBucket, TEST_S3_CREDENTIALS } from '@crawl/destination-s3/test-server';
import { createHash } from 'node:crypto';
import { productRecord, searchRecord } from '@crawl/catalog/testing/result-records';
import { CatalogPaths, type ResultRecord, type RouteSpec } from '@crawl/contracts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestResponse, TestService, TestUser } from '@crawl/server/testing';
import { expect } from 'vitest';

/**
 * One organization with one of every resource a public id route can name, made through the public
 * API (the crawler's reports through the internal route, as the worker sends them). The security
 * suite attacks these from another organization and checks afterwards that nothing changed.
 */
export interface SeededOrganization {
  user: TestUser;
  projectId: string;
  projectName: string;
  jobId: string;
  scheduleId: string;
  webhookId: string;
  deliveryId: string;
  monitorId: string;
  destinationId: string;
  /** The test server's bucket its destination writes to. */
  bucket: string;
  targetListId: string;
  /** A product and a keyword this organization has history of (natural keys: see NATURAL_KEYS). */
  asin: string;
  keyword: string;
  /** Strings only this organization's data contains; another organization must never see one. */
  secrets: string[];
}

/**
 * Path parameters that are not ids of a resource but natural keys of the organization's history:
 * another organization may ask for the same ASIN or keyword and must then get what a key it never
 * observed gets. The values stand for such a key, in a valid form.
 */
export const NATURAL_KEYS: Record<string, string> = { asin: 'B0NOSUCH01', keyword: 'a keyword nobody observed' };

/** Whether a route is addressed by a natural key rather than an owned id. */
export const isNaturalKeyRoute = (route: RouteSpec): boolean =>
  [...route.url.matchAll(/:([A-Za-z]+)/g)].some(([, name]) => name !== undefined && name in NATURAL_KEYS);

/** The jobs seedOrganization makes: a search job left running, a details job completed. */
export const SEEDED_JOBS = 2;

export async function seedOrganization(svc: TestService, options: { marker: string; webhookUrl: string }): Promise<SeededOrganization> {
  const user = await svc.registerUser();
  const as = <T = any>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => ok<T>(svc.request({ method, url, token: user.token, body }));
  const projectName = `${options.marker}-project`;
  const projectId = (await as('POST', '/projects', { name: projectName })).body.data.id as string;
  const keyword = `${options.marker}-keyword`;
  const jobId = (await as('POST', `/projects/${projectId}/jobs`, { type: 'search', targets: [keyword, `${options.marker}-other`] })).body.data.id as string;
  await reportTarget(svc, jobId, 0, [searchRecord({ asin: 'B0SECRET01', title: `${options.marker}-result`, keyword, rank: 1 })]);
  // A product of its own: the history routes have something of this organization to guard.
  const asin = `B0${createHash('sha256').update(options.marker).digest('hex').slice(0, 8).toUpperCase()}`;
  const detailsJobId = (await as('POST', `/projects/${projectId}/jobs`, { type: 'details', targets: [asin] })).body.data.id as string;
  await reportTarget(svc, detailsJobId, 0, [
    productRecord({ asin, title: `${options.marker}-product`, price: { amount: 12.34, currency: 'USD', raw: '$12.34' } }),
  ]);
  const scheduleId = (
    await as('POST', `/projects/${projectId}/schedules`, { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: [keyword] }, enabled: false })
  ).body.data.id as string;
  const webhookId = (await as('POST', `/projects/${projectId}/webhooks`, { url: options.webhookUrl, description: `${options.marker}-hook` })).body.data
    .id as string;
  const deliveryId = (await as('POST', `/webhooks/${webhookId}/test`)).body.data.id as string;
  // Paused, so it never runs: the suite's jobs stay the ones it made.
  const monitorId = (await as('POST', `/projects/${projectId}/monitors`, { ...monitorBody(keyword), name: `${options.marker}-monitor`, enabled: false })).body
    .data.id as string;
  // A destination needs a store its create can write a test object to: the S3 server CI starts.
  const s3 = process.env.TEST_S3_URL;
  if (!s3) throw new Error('the security suites need TEST_S3_URL (scripts/s3.sh start) to seed a destination');
  const bucket = `suite-${createHash('sha256').update(`${options.marker}${Date.now()}${Math.random()}`).digest('hex').slice(0, 12)}`;
  await createTestBucket(s3, bucket);
  const destinationId = (await as('POST', `/projects/${projectId}/destinations`, destinationBody(s3, bucket))).body.data.id as string;
  const upload = await svc.app.inject({
    method: 'POST',
    url: `/projects/${projectId}/target-lists?type=search&name=${options.marker}-list`,
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'text/plain' },
    payload: `${keyword}\n`,
  });
  if (upload.statusCode >= 300) throw new Error(`seeding failed: ${upload.statusCode} ${upload.body}`);
  const targetListId = (JSON.parse(upload.body) as { data: { list: { id: string } } }).data.list.id;
  return {
    user,
    projectId,
    projectName,
    destinationId,
    bucket,
    targetListId,
    jobId,
    scheduleId,
    webhookId,
    deliveryId,
    monitorId,
    asin,
    keyword,
    secrets: [
      user.organizationId,
      user.userId,
      user.email,
      projectId,
      jobId,
      scheduleId,
      webhookId,
      deliveryId,
      monitorId,
      destinationId,
      targetListId,
      detailsJobId,
      options.marker,
    ],
  };
}

/** A valid S3 destination on the test server. */
export function destinationBody(endpoint: string, bucket: string): Record<string, unknown> {
  return {
    type: 's3',
    bucket,
    prefix: 'suite',
    region: TEST_S3_CREDENTIALS.region,
    endpoint,
    accessKeyId: TEST_S3_CREDENTIALS.accessKeyId,
    secretAccessKey: TEST_S3_CREDENTIALS.secretAccessKey,
    format: 'ndjson',
    gzip: true,
  };
}

/** A valid search monitor of one keyword. */
export function monitorBody(keyword: string): Record<string, unknown> {
  return {
    name: 'suite-monitor',
    type: 'search',
    targets: [keyword],
    domain: 'amazon.com',
    every: '1d',
    watch: ['organicRank'],
    rules: [{ field: 'organicRank', op: 'entersTop', value: 3 }],
  };
}

/** Reports a target's results the way the crawler-worker does: claim, then the internal result route. */
export async function reportTarget(svc: TestService, jobId: string, index: number, items: readonly ResultRecord[]): Promise<void> {
  const headers = svc.internalHeaders('crawler-worker');
  await ok(svc.request({ method: 'POST', url: CatalogPaths.claimTarget(jobId, index), headers, body: {} }));
  await ok(svc.request({ method: 'POST', url: CatalogPaths.reportTarget(jobId, index), headers, body: { status: 'success', items } }));
}

async function ok<T>(pending: Promise<TestResponse<T>>): Promise<TestResponse<T>> {
  const res = await pending;
  if (res.status >= 300) throw new Error(`seeding failed: ${res.status} ${res.text}`);
  return res;
}

/** The spec's error envelope with this status (and code, when given), and no stack trace. */
export function expectEnvelope(res: TestResponse, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ success: false, error: { code: code ?? expect.any(String), message: expect.any(String), details: expect.any(Array) } });
  expect(res.text).not.toMatch(/\n\s+at /);
}

export interface Receiver {
  url: string;
  port: number;
  /** The paths of every request that reached it. */
  requests: string[];
  close(): Promise<void>;
}

/** A local HTTP server that records what reaches it: a webhook target, or proof that nothing did. */
export async function startReceiver(): Promise<Receiver> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The organization's id for each path parameter of a route, chosen by the resource the path names. */
export function idsOf(org: SeededOrganization, route: RouteSpec): Record<string, string> {
  const byResource: Record<string, string> = {
    projects: org.projectId,
    jobs: org.jobId,
    schedules: org.scheduleId,
    webhooks: org.webhookId,
    monitors: org.monitorId,
    destinations: org.destinationId,
    'target-lists': org.targetListId,
    organizations: org.user.organizationId,
  };
  const naturalKeys: Record<string, string> = { asin: org.asin, keyword: org.keyword };
  const resource = route.url.split('/')[route.url.startsWith('/admin/') ? 2 : 1] ?? '';
  const ids: Record<string, string> = {};
  for (const [, name] of route.url.matchAll(/:([A-Za-z]+)/g)) {
    const value = name === 'deliveryId' ? org.deliveryId : (naturalKeys[name as string] ?? byResource[resource]);
    if (!value) throw new Error(`${route.method} ${route.url}: the suite has no ${name} of a /${resource} resource; add one to seedOrganization`);
    ids[name as string] = value;
  }
  return ids;
}

/** The route's path with its parameters filled in (encoded). */
export function pathFor(route: RouteSpec, ids: Record<string, string>): string {
  return route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(ids[name] ?? ''));
}

/**
 * A body the route's validation accepts for the caller's own resources (`expectValidationPasses`
 * proves it), so a refusal of a changed copy is the change's doing. A new body route fails here
 * until it has one.
 */
export function validBodyFor(route: RouteSpec, org: SeededOrganization, options: { webhookUrl: string; newEmail: string }): Record<string, unknown> {
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /auth/register': { email: options.newEmail, password: 'a-long-enough-password' },
    'POST /auth/login': { email: org.user.email, password: org.user.password },
    'POST /auth/login-handoff': { email: org.user.email, password: org.user.password },
    'POST /auth/verify-handoff': { handoffToken: 'x.y.z' },
    'POST /projects': { name: 'made-by-the-suite' },
    'PATCH /projects/:id': { name: 'renamed' },
    'POST /projects/:projectId/jobs': { type: 'search', targets: ['suite'] },
    'POST /projects/:projectId/schedules': { cron: '0 9 * * *', crawlConfig: { type: 'search', targets: ['suite'] } },
    'PATCH /schedules/:id': { cron: '0 10 * * *' },
    'POST /projects/:projectId/webhooks': { url: options.webhookUrl },
    'PATCH /webhooks/:id': { description: 'changed' },
    'POST /projects/:projectId/monitors': monitorBody('suite'),
    'PATCH /monitors/:id': { name: 'changed' },
    'POST /projects/:projectId/jobs/estimate': { type: 'search', targets: ['suite'] },
    'POST /projects/:projectId/destinations': destinationBody(process.env.TEST_S3_URL ?? 'http://127.0.0.1:9', org.bucket),
    'POST /private/credits/checkout': { packageId: 'starter' },
    'POST /referral/click': { code: 'nosuchcode' },
  };
  const key = `${route.method} ${route.url}`;
  const body = bodies[key];
  if (!body) throw new Error(`${key} takes a body: add a valid one to validBodyFor`);
  return body;
}

/** The control for a changed body: the unchanged one gets past validation (whatever the route answers then, 503 for payments not configured included). */
export function expectValidationPasses(res: TestResponse, label: string): void {
  expect(res.status, `${label}: ${res.text}`).not.toBe(500);
  expect(res.body?.error?.code, `${label}: ${res.text}`).not.toBe('VALIDATION_ERROR');
}

/** A route that stays open while its job runs (Server-Sent Events): read it by its first event, never to its end. */
export function isEventStream(route: RouteSpec): boolean {
  const ok = route.schema.response?.[200] as { content?: Record<string, unknown> } | undefined;
  return ok?.content?.['text/event-stream'] !== undefined;
}

/**
 * A GET answered as far as its first event (or whole, when it is not a stream: an error envelope),
 * then dropped: `inject` would wait for the end of a stream that ends only with its job.
 */
export async function readFirstEvent(svc: TestService, url: string, token: string | undefined): Promise<{ status: number; text: string }> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const response = await svc.app.inject({ method: 'GET', url, headers, payloadAsStream: true });
  const stream = response.stream();
  let text = '';
  try {
    for await (const chunk of stream) {
      text += String(chunk);
      if (response.statusCode !== 200 || /\nevent: [^\n]+\ndata: [^\n]*\n\n/.test(`\n${text}`)) break;
    }
  } finally {
    stream.destroy();
  }
  return { status: response.statusCode, text };
}
