import { PUBLIC_ROUTES, type RouteSpec } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEnvelope,
  idsOf,
  isNaturalKeyRoute,
  NATURAL_KEYS,
  SEEDED_JOBS,
  isEventStream,
  destinationBody,
  monitorBody,
  pathFor,
  type Receiver,
  readFirstEvent,
  type SeededOrganization,
  seedOrganization,
  startReceiver,
} from './seeded-organization.ts';

/**
 * Organization B's token on organization A's ids, for every public route with a path parameter
 * (taken from the route table, so a new id route is attacked without editing this file), and every
 * list route read by B. Per-feature cases live next to each feature (projects, jobs, results,
 * schedules and webhooks `*.routes.test.ts` in services/catalog); this suite is the whole table.
 */

type Method = RouteSpec['method'];

/** A body each route accepts, so the ownership check (not validation) is what answers. */
const VALID_BODIES: Readonly<Record<string, unknown>> = {
  'PATCH /projects/:id': { name: 'taken-over' },
  'POST /projects/:projectId/jobs': { type: 'search', targets: ['b-keyword'] },
  'POST /projects/:projectId/schedules': { cron: '0 7 * * *', crawlConfig: { type: 'search', targets: ['b-keyword'] } },
  'PATCH /schedules/:id': { enabled: true, cron: '0 8 * * *' },
  'POST /projects/:projectId/webhooks': { url: 'http://127.0.0.1:9/b' },
  'PATCH /webhooks/:id': { url: 'http://127.0.0.1:9/b', enabled: false },
  'POST /projects/:projectId/monitors': monitorBody('b-keyword'),
  'POST /projects/:projectId/jobs/estimate': { type: 'search', targets: ['b-keyword'] },
  'POST /projects/:projectId/destinations': destinationBody(process.env.TEST_S3_URL ?? 'http://127.0.0.1:9', 'b-bucket'),
  'PATCH /monitors/:id': { name: 'taken-over', enabled: true },
  'POST /admin/organizations/:organizationId/credits': { type: 'revoke', amount: 1, reason: 'attack' },
  'PATCH /admin/organizations/:organizationId/limits': { jobsPerMonth: 0 },
};

const idRoutes = PUBLIC_ROUTES.filter((route) => route.url.includes('/:'));
const listRoutes = PUBLIC_ROUTES.filter((route) => route.method === 'GET' && route.access !== 'public');

describe('tenant isolation through the all-in-one', () => {
  let svc: TestService;
  let receiver: Receiver;
  let a: SeededOrganization;
  let b: SeededOrganization;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Webhooks to the local receiver, so a test delivery exists and goes nowhere else.
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_TICK_MS: '3600000' } });
    a = await seedOrganization(svc, { marker: 'alpha-7f3c', webhookUrl: `${receiver.url}/a` });
    b = await seedOrganization(svc, { marker: 'bravo-91d2', webhookUrl: `${receiver.url}/b` });
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  const fill = pathFor;

  function bodyFor(route: RouteSpec): unknown {
    if (!route.schema.body) return undefined;
    const key = `${route.method} ${route.url}`;
    if (!(key in VALID_BODIES)) throw new Error(`${key} takes a body: add a valid one to VALID_BODIES so ownership, not validation, answers`);
    return VALID_BODIES[key];
  }

  // An upload route takes a file and its options in the query: a valid one, so ownership is what answers.
  const UPLOADS: Record<string, { query: string; text: string }> = { '/target-lists': { query: '?type=search&name=taken-over', text: 'b-keyword\n' } };
  const call = async (method: Method, url: string, token: string, body?: unknown) => {
    const upload = method === 'POST' ? Object.entries(UPLOADS).find(([suffix]) => url.endsWith(suffix))?.[1] : undefined;
    if (!upload) return svc.request({ method, url, token, ...(body === undefined ? {} : { body }) });
    const res = await svc.app.inject({
      method,
      url: url + upload.query,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: upload.text,
    });
    let parsed: any;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text: res.body, body: parsed };
  };

  it('covers every id route of the table', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(20);
    for (const route of idRoutes) expect(() => idsOf(a, route)).not.toThrow();
  });

  it.each(idRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    "%s with another organization's ids answers like an unknown id, never 2xx or a revealing 403",
    async (_label, route) => {
      const body = bodyFor(route);
      if (isNaturalKeyRoute(route)) {
        // An ASIN or a keyword is anyone's to ask for: B gets of A's what it gets of one nobody observed.
        const keys = idsOf(a, route);
        const theirs = await call(route.method, fill(route, keys), b.user.token, body);
        const unknown = await call(route.method, fill(route, NATURAL_KEYS), b.user.token, body);
        const asUnknown = Object.entries(keys).reduce((text, [name, key]) => text.split(key).join(NATURAL_KEYS[name] ?? key), theirs.text);
        expect(theirs.status, theirs.text).toBe(unknown.status);
        expect(asUnknown).toBe(unknown.text);
        for (const secret of a.secrets) expect(asUnknown).not.toContain(secret);
        return;
      }
      const theirs = await call(route.method, fill(route, idsOf(a, route)), b.user.token, body);
      const unknownIds = Object.fromEntries(Object.keys(idsOf(a, route)).map((name) => [name, `${name}_does_not_exist`]));
      const unknown = await call(route.method, fill(route, unknownIds), b.user.token, body);
      if (route.access === 'admin') {
        // Role first: a non-admin learns nothing about which organizations exist.
        expectEnvelope(theirs, 403, 'FORBIDDEN');
      } else {
        expectEnvelope(theirs, 404, 'NOT_FOUND');
      }
      expect(theirs.body).toEqual(unknown.body);
      for (const secret of a.secrets) expect(theirs.text).not.toContain(secret);
    },
  );

  it.each(listRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    "%s read by another organization shows none of the first organization's data",
    async (_label, route) => {
      // Lists under an id are read through B's own ids; the id routes above cover A's.
      const ids = route.url.includes('/:') ? idsOf(b, route) : {};
      const res = isEventStream(route) ? await readFirstEvent(svc, fill(route, ids), b.user.token) : await call(route.method, fill(route, ids), b.user.token);
      expect(res.status, res.text).toBeLessThan(500);
      for (const secret of a.secrets) expect(res.text, `${route.url} leaks ${secret}`).not.toContain(secret);
    },
  );

  it("leaves the first organization's resources as they were", async () => {
    const as = (url: string) => call('GET', url, a.user.token);
    const projects = (await as('/projects')).body.data;
    expect(projects).toEqual([expect.objectContaining({ id: a.projectId, name: a.projectName, archived: false })]);
    const jobs = await as(`/projects/${a.projectId}/jobs`);
    // B's retry and cancel made no job and cancelled nothing.
    expect(jobs.body.meta.total).toBe(SEEDED_JOBS);
    expect(jobs.body.data).toContainEqual(expect.objectContaining({ id: a.jobId, status: 'running', organizationId: a.user.organizationId }));
    const results = await as(`/jobs/${a.jobId}/results`);
    expect(results.body.data.pagination.total).toBe(1);
    const schedules = (await as(`/projects/${a.projectId}/schedules`)).body.data;
    expect(schedules).toEqual([expect.objectContaining({ id: a.scheduleId, enabled: false, cron: '0 6 * * *' })]);
    const webhooks = (await as(`/projects/${a.projectId}/webhooks`)).body.data;
    expect(webhooks).toEqual([expect.objectContaining({ id: a.webhookId, url: `${receiver.url}/a`, enabled: true, previousSecretExpiresAt: null })]);
    const deliveries = await as(`/webhooks/${a.webhookId}/deliveries`);
    expect(deliveries.body.data.map((d: { id: string }) => d.id)).toEqual([a.deliveryId]);
    // B's run, resume, change and delete of A's monitor did nothing (the job count above: no run).
    const monitors = (await as(`/projects/${a.projectId}/monitors`)).body.data;
    expect(monitors).toEqual([expect.objectContaining({ id: a.monitorId, status: 'paused', name: expect.stringMatching(/-monitor$/), lastJobId: null })]);
    // Exports of A's job by B were refused, so none was counted against either organization.
    const usage = (await as('/usage')).body.data;
    expect(JSON.stringify(usage)).not.toContain(b.user.organizationId);
  });
});
