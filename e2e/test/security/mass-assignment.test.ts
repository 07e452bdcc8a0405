import { PUBLIC_ROUTES, type RouteSpec } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectEnvelope,
  expectValidationPasses,
  idsOf,
  pathFor,
  type Receiver,
  type SeededOrganization,
  SEEDED_JOBS,
  seedOrganization,
  startReceiver,
  validBodyFor,
} from './seeded-organization.ts';

/**
 * Fields a client must never set, added to every create and update body of the route table. Each
 * is refused (400) and nothing is stored; the resources are read back afterwards to prove it.
 * gateway.routes.test.ts already checks `__proto__` on the login body; this covers every body.
 */

/** Field name → raw JSON value; raw so `__proto__` reaches the parser as a key, not a prototype. */
const PRIVILEGED_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['organizationId', '"ORG_B"'],
  ['id', '"forced-id"'],
  ['_id', '"forced-id"'],
  ['role', '"admin"'],
  ['credits', '1000000'],
  ['status', '"completed"'],
  ['resultCount', '999'],
  ['createdAt', '"2000-01-01T00:00:00.000Z"'],
  ['ownerId', '"ORG_B_USER"'],
  ['__proto__', '{"role":"admin","polluted":true}'],
  ['constructor', '{"prototype":{"role":"admin","polluted":true}}'],
];

/** Admin bodies need an admin; their schemas are held to the same rule by the schema check below. */
const attackable = PUBLIC_ROUTES.filter((route) => route.schema.body && route.access !== 'admin');

type TSchema = NonNullable<RouteSpec['schema']['body']>;

/** Every object in a body schema is closed, except the job `config` the spec keeps open. */
function openObjects(schema: TSchema, path: string): string[] {
  const found: string[] = [];
  if (schema.type === 'object' && schema.additionalProperties !== false && path !== 'body.config' && !path.endsWith('.crawlConfig.config')) found.push(path);
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) found.push(...openObjects(child, `${path}.${key}`));
  for (const child of (schema.anyOf ?? []) as TSchema[]) found.push(...openObjects(child, path));
  if (schema.items) found.push(...openObjects(schema.items as TSchema, `${path}[]`));
  return found;
}

describe('mass assignment through the all-in-one', () => {
  let svc: TestService;
  let receiver: Receiver;
  let a: SeededOrganization;
  let b: SeededOrganization;
  let control: SeededOrganization;
  const dashboardTokens = new Map<SeededOrganization, string>();
  const attackerEmail = 'mass-assign-register@example.com';

  const requestFor = (route: RouteSpec, org: SeededOrganization, newEmail: string) => ({
    method: route.method,
    url: pathFor(route, idsOf(org, route)),
    token: route.access === 'dashboard' ? dashboardTokens.get(org) : org.user.token,
    body: validBodyFor(route, org, { webhookUrl: `${receiver.url}/suite`, newEmail }),
  });

  beforeAll(async () => {
    receiver = await startReceiver();
    svc = await startTestService({ env: { WEBHOOK_REQUIRE_HTTPS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_TICK_MS: '3600000' } });
    a = await seedOrganization(svc, { marker: 'mass-a', webhookUrl: `${receiver.url}/a` });
    b = await seedOrganization(svc, { marker: 'mass-b', webhookUrl: `${receiver.url}/b` });
    control = await seedOrganization(svc, { marker: 'mass-control', webhookUrl: `${receiver.url}/c` });
    for (const org of [a, control]) dashboardTokens.set(org, await svc.dashboardToken(org.user));
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('closes every request body schema of the route table (a new field must be declared to be accepted)', () => {
    const open = PUBLIC_ROUTES.filter((route) => route.schema.body).flatMap((route) =>
      openObjects(route.schema.body as TSchema, 'body').map((p) => `${route.url} ${p}`),
    );
    expect(open).toEqual([]);
  });

  it.each(attackable.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s refuses every privileged extra field with 400',
    async (_label, route) => {
      // The unchanged body on a third organization, so what it does leaves A and B as they were.
      expectValidationPasses(await svc.request(requestFor(route, control, 'mass-assign-control@example.com')), 'unchanged body');
      const { method, url, token, body } = requestFor(route, a, attackerEmail);
      const base = JSON.stringify(body);
      for (const [field, value] of PRIVILEGED_FIELDS) {
        const payload = `${base.slice(0, -1)},${JSON.stringify(field)}:${value.replace('ORG_B_USER', b.user.userId).replace('ORG_B', b.user.organizationId)}}`;
        const res = await svc.request({ method, url, token, payload, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${field}: ${res.text}`).toBe(400);
        expectEnvelope(res, 400, 'VALIDATION_ERROR');
      }
    },
  );

  it('refuses privileged fields nested in a schedule crawl config', async () => {
    for (const [field, value] of PRIVILEGED_FIELDS) {
      const payload = `{"cron":"0 9 * * *","crawlConfig":{"type":"search","targets":["x"],${JSON.stringify(field)}:${value.replace('ORG_B', b.user.organizationId)}}}`;
      const res = await svc.request({
        method: 'POST',
        url: `/projects/${a.projectId}/schedules`,
        token: a.user.token,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
    }
  });

  it("keeps privileged names inside a job's open config as data only", async () => {
    const config = {
      organizationId: b.user.organizationId,
      status: 'completed',
      resultCount: 999,
      creditsReserved: 0,
      id: 'forced-id',
      projectId: b.projectId,
    };
    const res = await svc.request({
      method: 'POST',
      url: `/projects/${a.projectId}/jobs`,
      token: a.user.token,
      body: { type: 'search', targets: ['k'], config },
    });
    expect(res.status).toBe(201);
    const stored = (await svc.request({ method: 'GET', url: `/jobs/${res.body.data.id}`, token: a.user.token })).body.data;
    expect(stored).toMatchObject({ organizationId: a.user.organizationId, projectId: a.projectId, status: 'queued', resultCount: 0, creditsReserved: 5 });
    expect(stored.id).not.toBe('forced-id');
    expect(stored.config).toEqual(config);
    expect((await svc.request({ method: 'GET', url: `/jobs/${res.body.data.id}`, token: b.user.token })).status).toBe(404);
  });

  it('stored nothing and changed nothing', async () => {
    const as = (url: string, token = a.user.token) => svc.request({ method: 'GET', url, token });
    expect((await as('/projects')).body.data).toEqual([expect.objectContaining({ id: a.projectId, name: a.projectName })]);
    expect((await as('/projects', b.user.token)).body.data).toEqual([expect.objectContaining({ id: b.projectId, name: b.projectName })]);
    // The seeded jobs and the one with the open config above; none from the refused creates.
    expect((await as(`/projects/${a.projectId}/jobs`)).body.meta.total).toBe(SEEDED_JOBS + 1);
    expect((await as(`/projects/${b.projectId}/jobs`, b.user.token)).body.meta.total).toBe(SEEDED_JOBS);
    expect((await as(`/projects/${a.projectId}/schedules`)).body.data).toEqual([expect.objectContaining({ id: a.scheduleId, cron: '0 6 * * *' })]);
    expect((await as(`/projects/${a.projectId}/webhooks`)).body.data).toEqual([
      expect.objectContaining({ id: a.webhookId, description: 'mass-a-hook', url: `${receiver.url}/a` }),
    ]);
    const me = await as('/auth/me');
    expect(me.body.data).toMatchObject({ organizationId: a.user.organizationId, role: 'user' });
    const usage = (await as('/usage')).body.data;
    const bUsage = (await as('/usage', b.user.token)).body.data;
    // Only the one accepted job reserved credits; no checkout went through.
    expect(usage.credits).toEqual({ ...bUsage.credits, available: bUsage.credits.available - 5, reserved: bUsage.credits.reserved + 5 });
    const registered = await svc.request({ method: 'POST', url: '/auth/login', body: { email: attackerEmail, password: 'a-long-enough-password' } });
    expectEnvelope(registered, 401, 'INVALID_CREDENTIALS');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});
