import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PUBLIC_OPERATIONS } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayModule } from '../../module.ts';

const run = promisify(execFile);
/** Services the gateway forwards to; never called, the document is built from the route tables. */
const NOWHERE = 'http://127.0.0.1:9';

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, any>; parameters?: any[] };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> }; servers?: unknown[]; info: any };

const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

/** The Redocly CLI installed with this package, run by this Node: what `npx @redocly/cli lint` runs, offline. */
function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@redocly/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : (bin.redocly ?? Object.values(bin)[0] ?? ''));
}

describe('the OpenAPI document the gateway serves', () => {
  let svc: TestService;
  let doc: Document;
  let operations: Array<{ path: string; method: string; operation: Operation }>;
  beforeAll(async () => {
    // The gateway on its own forwards every public route, so its document lists all of them.
    svc = await startTestService({ modules: [createGatewayModule()], env: { AUTH_URL: NOWHERE, CATALOG_URL: NOWHERE, BILLING_URL: NOWHERE } });
    const res = await svc.request({ method: 'GET', url: '/openapi.json' });
    expect(res.status).toBe(200);
    doc = res.body;
    operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
  });
  afterAll(async () => svc.close());

  it('names every operation after its route table key, one operation per public route, /health included', () => {
    const expected = PUBLIC_OPERATIONS.map(({ operationId, spec }) => `${spec.method.toLowerCase()} ${openApiPath(spec.url)} ${operationId}`);
    const listed = operations.map(({ path, method, operation }) => `${method} ${path} ${operation.operationId}`);
    expect(listed.sort()).toEqual(expected.sort());
    expect(doc.paths['/health']?.get?.operationId).toBe('health');
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
  });

  it('says which operations need a token: none on public routes, a bearer on the rest', () => {
    const byId = new Map(operations.map(({ operation }) => [operation.operationId, operation]));
    for (const id of ['health', 'register', 'login', 'loginHandoff', 'verifyHandoff', 'referralClick', 'referralLink'])
      expect(byId.get(id)?.security, id).toEqual([]);
    expect(byId.get('getJob')?.security).toEqual([{ bearerAuth: [] }]);
    expect(byId.get('logout')?.security).toEqual([{}, { bearerAuth: [] }]);
  });

  it('names schemas after their TypeBox $id and shares one error envelope', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['ErrorEnvelope', 'Job', 'Project', 'Schedule', 'Monitor', 'MonitorEvent', 'MonitorRule']));
    expect(names.filter((name) => name.startsWith('def-'))).toEqual([]);
    const getJob = doc.paths['/jobs/{id}']?.get as Operation;
    expect(getJob.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Job' });
    expect(getJob.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    // The envelope is written out once, as the component, not inline in every error response.
    expect(JSON.stringify(doc).match(/"Every error answers with this envelope\."/g)).toHaveLength(1);
    expect(doc.paths['/auth/login']?.post?.responses['429'].headers['retry-after']).toBeDefined();
  });

  it('lists enumerations as enums and describes the export as a file in both formats', () => {
    const job = doc.components.schemas.Job as { properties: Record<string, unknown> };
    expect(job.properties.type).toMatchObject({
      type: 'string',
      enum: ['search', 'details', 'reviews', 'offers', 'bestsellers', 'category', 'seller', 'autocomplete'],
    });
    const exportJob = doc.paths['/jobs/{id}/export']?.get as Operation;
    expect(Object.keys(exportJob.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
    expect(exportJob.responses['200'].headers['content-disposition']).toBeDefined();
    expect(exportJob.responses['409']).toBeDefined();
    // The file's records are the named record components (docs/data.md), written out once.
    expect(exportJob.responses['200'].content['application/json'].schema.items.anyOf).toEqual([
      { $ref: '#/components/schemas/ProductRecord' },
      { $ref: '#/components/schemas/SearchRecord' },
      { $ref: '#/components/schemas/ReviewRecord' },
      { $ref: '#/components/schemas/OfferRecord' },
      { $ref: '#/components/schemas/BestsellerRecord' },
      { $ref: '#/components/schemas/CategoryItemRecord' },
      { $ref: '#/components/schemas/SellerRecord' },
      { $ref: '#/components/schemas/SuggestionRecord' },
    ]);
    expect(doc.components.schemas.ProductRecord).toMatchObject({ type: 'object', properties: { asin: expect.any(Object) } });
    for (const name of ['SearchRecord', 'ReviewRecord', 'OfferRecord', 'BestsellerRecord', 'CategoryItemRecord', 'SellerRecord', 'SuggestionRecord']) {
      expect(doc.components.schemas[name], name).toMatchObject({ type: 'object' });
    }
    // A job's targets say how much of a product's reviews they fetched.
    expect(doc.components.schemas.TargetCoverage).toMatchObject({ type: 'object', properties: { limitedBy: expect.any(Object) } });
  });

  it('describes the target-list upload as a plain-text or CSV body', () => {
    const upload = doc.paths['/projects/{projectId}/target-lists']?.post as Operation & { requestBody?: { content: Record<string, { schema: unknown }> } };
    expect(Object.keys(upload.requestBody?.content ?? {}).sort()).toEqual(['text/csv', 'text/plain']);
    expect(upload.requestBody?.content['text/plain']?.schema).toMatchObject({ type: 'string' });
    expect(upload.responses['413']).toBeDefined();
  });

  it('passes `redocly lint` (recommended rules) with no error and no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      // No telemetry and no update check: CI reaches only the package registry.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const result = await run(process.execPath, [redoclyBin(), 'lint', file, '--extends=recommended', '--format=json'], { env, cwd: dir }).catch(
        (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
      );
      const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message} ${JSON.stringify((problem as { location?: unknown }).location)}`)).toEqual(
        [],
      );
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
