import { PUBLIC_ROUTES, type RouteSpec } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEnvelope,
  expectValidationPasses,
  idsOf,
  isNaturalKeyRoute,
  SEEDED_JOBS,
  isEventStream,
  pathFor,
  type Receiver,
  readFirstEvent,
  type SeededOrganization,
  seedOrganization,
  startReceiver,
  validBodyFor,
} from './seeded-organization.ts';

/**
 * Query operators where the API expects plain values: in path ids, query strings and bodies, on
 * every route of the table. Ids are sent by their owner, so an operator that matched anything would
 * show up as a 2xx with the owner's data. The job `config` key rules are unit-tested in
 * services/catalog/src/features/jobs/job-service.test.ts; here they are checked end to end.
 */

const OPERATOR_IDS = ['{"$gt":""}', '{"$ne":null}', '{"$regex":".*"}', '{"$where":"1"}', '$gt', '$ne', '[$ne]=1', '.*', 'a.b', '$'];
const OPERATOR_VALUES: readonly unknown[] = [{ $gt: '' }, { $ne: null }, { $regex: '.*' }, { $in: ['a'] }, { $exists: true }, [{ $ne: null }]];

const idRoutes = PUBLIC_ROUTES.filter((route) => route.url.includes('/:'));
const queryRoutes = PUBLIC_ROUTES.filter((route) => route.method === 'GET' && route.access !== 'admin');
const bodyRoutes = PUBLIC_ROUTES.filter((route) => route.schema.body && route.access !== 'admin');

function schemaKeys(schema: RouteSpec['schema']['querystring']): string[] {
  return Object.keys((schema?.properties ?? {}) as Record<string, unknown>);
}

describe('operator injection through the all-in-one', () => {
  let svc: TestService;
  let receiver: Receiver;
  let a: SeededOrganization;
  let b: SeededOrganization;
  const dashboardTokens = new Map<SeededOrganization, string>();
  const tokenFor = (route: RouteSpec, org: SeededOrganization) => (route.access === 'dashboard' ? dashboardTokens.get(org) : org.user.token);

  beforeAll(async () => {
    receiver = await startReceiver();
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_TICK_MS: '3600000' } });
    a = await seedOrganization(svc, { marker: 'inject-a', webhookUrl: `${receiver.url}/a` });
    b = await seedOrganization(svc, { marker: 'inject-b', webhookUrl: `${receiver.url}/b` });
    for (const org of [a, b]) dashboardTokens.set(org, await svc.dashboardToken(org.user));
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it.each(idRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))('%s matches no record for an operator-like id', async (_label, route) => {
    const ids = idsOf(a, route);
    const body =
      route.schema.body && route.access !== 'admin' ? validBodyFor(route, a, { webhookUrl: `${receiver.url}/x`, newEmail: 'x@example.com' }) : undefined;
    for (const name of Object.keys(ids)) {
      for (const injected of OPERATOR_IDS) {
        const res = await svc.request({ method: route.method, url: pathFor(route, { ...ids, [name]: injected }), token: a.user.token, body });
        // A keyword is free text: operator text is a keyword nobody searched, with no history.
        if (isNaturalKeyRoute(route) && res.status === 200) {
          expect(res.body.data.points, `${name}=${injected}: ${res.text}`).toEqual([]);
          continue;
        }
        expect([400, 403, 404], `${name}=${injected}: ${res.text}`).toContain(res.status);
        expectEnvelope(res, res.status);
        if (route.access === 'admin') expect(res.status).toBe(403);
      }
    }
  });

  it.each(queryRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s ignores bracket operators in the query string and matches nothing with operator text',
    async (_label, route) => {
      const url = pathFor(route, route.url.includes('/:') ? idsOf(b, route) : {});
      const token = tokenFor(route, b);
      const known = schemaKeys(route.schema.querystring);
      // An event stream is read as far as its first event: it stays open while its job runs.
      const get = (target: string): Promise<{ status: number; text: string; body?: any }> =>
        isEventStream(route) ? readFirstEvent(svc, target, token) : svc.request({ method: 'GET', url: target, token });
      const plain = await get(url);
      for (const key of [...known, 'organizationId', 'projectId', '_id']) {
        for (const suffix of ['[$ne]=x', '[$gt]=', '[$regex]=.*', '[$in][]=queued', `=${encodeURIComponent('{"$ne":null}')}`]) {
          const res = await get(`${url}?${key}${suffix}`);
          const label = `${key}${suffix}: ${res.text.slice(0, 200)}`;
          expect(res.status, label).toBeLessThan(500);
          if (suffix.startsWith('=')) {
            // A JSON text is a plain string to a string field: it may only match nothing.
            if (known.includes(key) && res.status === 200) expect(res.body.data, label).toEqual([]);
          } else {
            // `key[$ne]` is a parameter no route knows: ignored (docs/api.md), never read as an operator.
            expect(res.status, label).toBe(plain.status);
            if (!route.raw) expect(res.body, label).toEqual(plain.body);
          }
          for (const secret of a.secrets) expect(res.text, label).not.toContain(secret);
        }
      }
    },
  );

  it.each(bodyRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s refuses operator objects in every body field',
    async (_label, route) => {
      const base = validBodyFor(route, a, { webhookUrl: `${receiver.url}/x`, newEmail: 'operator-control@example.com' });
      const url = pathFor(route, idsOf(a, route));
      const fields = Object.keys((route.schema.body?.properties ?? {}) as Record<string, unknown>);
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) {
        for (const value of OPERATOR_VALUES) {
          const res = await svc.request({ method: route.method, url, token: tokenFor(route, a), body: { ...base, [field]: value } });
          expect(res.status, `${field}=${JSON.stringify(value)}: ${res.text}`).toBe(400);
          expectEnvelope(res, 400, 'VALIDATION_ERROR');
        }
      }
    },
  );

  it('never logs in with operator credentials', async () => {
    for (const url of ['/auth/login', '/auth/login-handoff']) {
      for (const value of OPERATOR_VALUES) {
        expectEnvelope(await svc.request({ method: 'POST', url, body: { email: value, password: value } }), 400, 'VALIDATION_ERROR');
        expectEnvelope(await svc.request({ method: 'POST', url, body: { email: a.user.email, password: value } }), 400, 'VALIDATION_ERROR');
      }
    }
    // The control: the real credentials still work, so the refusals above were the operators'.
    expectValidationPasses(await svc.request({ method: 'POST', url: '/auth/login', body: { email: a.user.email, password: a.user.password } }), 'login');
  });

  it('refuses operator and path keys anywhere in a job config or schedule crawl config', async () => {
    const configs = [{ $where: '1' }, { 'a.b': 1 }, { nested: { $set: { organizationId: b.user.organizationId } } }, { list: [{ $ne: null }] }, { '': 1 }];
    for (const config of configs) {
      const job = await svc.request({
        method: 'POST',
        url: `/projects/${a.projectId}/jobs`,
        token: a.user.token,
        body: { type: 'search', targets: ['k'], config },
      });
      expectEnvelope(job, 400, 'VALIDATION_ERROR');
      const schedule = await svc.request({
        method: 'POST',
        url: `/projects/${a.projectId}/schedules`,
        token: a.user.token,
        body: { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['k'], config } },
      });
      expectEnvelope(schedule, 400, 'VALIDATION_ERROR');
    }
  });

  it('stored nothing in either organization', async () => {
    const as = (url: string, org: SeededOrganization) => svc.request({ method: 'GET', url, token: org.user.token });
    for (const org of [a, b]) {
      expect((await as('/projects', org)).body.data).toEqual([expect.objectContaining({ id: org.projectId, name: org.projectName })]);
      expect((await as(`/projects/${org.projectId}/jobs`, org)).body.meta.total).toBe(SEEDED_JOBS);
      expect((await as(`/projects/${org.projectId}/schedules`, org)).body.data.map((s: { id: string }) => s.id)).toEqual([org.scheduleId]);
      expect((await as(`/projects/${org.projectId}/webhooks`, org)).body.data.map((w: { id: string }) => w.id)).toEqual([org.webhookId]);
    }
  });
});
