import {
  type CatalogInternalRoutes,
  type CatalogRoutes,
  defineInternalRoutes,
  defineRoutes,
  type CreateJobBody,
  type ListJobsQuery,
  type ReportTargetBody,
} from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import Fastify, { type RouteOptions } from 'fastify';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { routeFromSpec, type SpecHandler, type SpecRequest, type SpecResponseBody } from './route.ts';
import { validatorCompiler } from './validators.ts';

// The type assertions below are checked by `pnpm typecheck`: a spec and its handler cannot drift.
describe('route types come from the spec', () => {
  it('types params, query and body of a public route from its schemas', () => {
    type CreateJob = SpecRequest<typeof CatalogRoutes.createJob>;
    expectTypeOf<CreateJob['params']>().toEqualTypeOf<{ projectId: string }>();
    expectTypeOf<CreateJob['body']>().toEqualTypeOf<CreateJobBody>();

    type ListJobs = SpecRequest<typeof CatalogRoutes.listJobs>;
    expectTypeOf<ListJobs['query']>().toEqualTypeOf<ListJobsQuery>();
    // A route without a body schema has no typed body to read.
    expectTypeOf<ListJobs['body']>().toBeUnknown();
  });

  it('types internal routes, numbers in paths included', () => {
    type Report = SpecRequest<typeof CatalogInternalRoutes.reportTarget>;
    expectTypeOf<Report['params']>().toEqualTypeOf<{ jobId: string; index: number }>();
    expectTypeOf<Report['body']>().toEqualTypeOf<ReportTargetBody>();
  });

  it('rejects a handler that reads a field the schema does not have, or returns a body the responses do not allow', () => {
    const spec = defineRoutes({
      rename: {
        method: 'PATCH',
        url: '/things/:id',
        owner: 'catalog',
        access: 'user',
        schema: {
          summary: 'Rename a thing',
          tags: ['things'],
          params: Type.Object({ id: Type.String() }),
          body: Type.Object({ name: Type.String() }),
          response: { 200: Type.Object({ data: Type.Object({ id: Type.String(), name: Type.String() }) }) },
        },
      },
    }).rename;
    expectTypeOf<SpecResponseBody<typeof spec>>().toEqualTypeOf<{ data: { id: string; name: string } }>();

    const good: SpecHandler<typeof spec> = (request) => ({ data: { id: request.params.id, name: request.body.name } });
    // @ts-expect-error `title` is not in the body schema
    const readsMissing: SpecHandler<typeof spec> = (request) => ({ data: { id: request.params.id, name: request.body.title } });
    // @ts-expect-error the 200 schema wants `name`
    const returnsWrong: SpecHandler<typeof spec> = (request) => ({ data: { id: request.params.id } });
    expect([good, readsMissing, returnsWrong]).toHaveLength(3);
  });
});

describe('routeFromSpec', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  function appWithRoutes() {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler());
    const seen: RouteOptions[] = [];
    app.addHook('onRoute', (route) => void seen.push(route));
    apps.push(app);
    return { app, seen };
  }

  it('registers the path, schemas and policy of a public spec, and the handler sees validated, coerced input', async () => {
    const { app, seen } = appWithRoutes();
    const spec = defineRoutes({
      page: {
        method: 'GET',
        url: '/pages/:n',
        owner: 'catalog',
        access: 'public',
        rateLimits: [{ name: 'pages', max: 5, timeWindowMs: 1_000, key: 'ip' }],
        schema: {
          summary: 'A page',
          tags: ['pages'],
          params: Type.Object({ n: Type.Integer({ minimum: 1 }) }),
          response: { 200: Type.Object({ next: Type.Integer() }) },
        },
      },
    }).page;
    routeFromSpec(app, spec, async (request) => ({ next: request.params.n + 1 }));
    await app.ready();

    expect(seen[0]?.config).toEqual({ access: 'public', owner: 'catalog', rateLimits: spec.rateLimits });
    expect((await app.inject({ method: 'GET', url: '/pages/41' })).json()).toEqual({ next: 42 });
    expect((await app.inject({ method: 'GET', url: '/pages/0' })).statusCode).toBe(400);
  });

  it('registers an internal spec as internal, with its own body limit', async () => {
    const { app, seen } = appWithRoutes();
    const spec = defineInternalRoutes({
      echo: { method: 'POST', url: '/internal/echo', access: 'internal', bodyLimit: 64, schema: { body: Type.Object({ text: Type.String() }) } },
    }).echo;
    routeFromSpec(app, spec, async (request) => ({ text: request.body.text }));
    await app.ready();

    expect(seen[0]?.config).toEqual({ access: 'internal' });
    expect((await app.inject({ method: 'POST', url: '/internal/echo', payload: { text: 'hi' } })).json()).toEqual({ text: 'hi' });
    expect((await app.inject({ method: 'POST', url: '/internal/echo', payload: { text: 'x'.repeat(100) } })).statusCode).toBe(413);
  });
});
