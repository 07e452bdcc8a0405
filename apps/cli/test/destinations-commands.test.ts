import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope, runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const destination = (extra: Record<string, unknown> = {}) => ({
  id: 'dst_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  type: 's3',
  name: 'warehouse',
  bucket: 'acme-results',
  prefix: 'crawl/amazon',
  region: 'eu-central-1',
  endpoint: 'https://s3.example.test',
  format: 'ndjson',
  gzip: true,
  lastTestAt: '2026-03-01T00:00:00.000Z',
  lastTestError: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...extra,
});

const delivery = {
  id: 'dsd_1',
  jobId: 'job_1',
  destinationId: 'dst_1',
  status: 'delivered',
  attempts: [
    { attempt: 1, at: '2026-03-01T00:00:00.000Z', ok: false, latencyMs: 12, error: 'NoSuchBucket: The specified bucket does not exist', replay: false },
    { attempt: 2, at: '2026-03-01T00:05:00.000Z', ok: true, latencyMs: 40, error: null, replay: true },
  ],
  attemptCount: 2,
  nextAttemptAt: null,
  lastError: null,
  deliveredAt: '2026-03-01T00:05:00.000Z',
  manifestKey: 'crawl/amazon/job_1/manifest.json',
  rows: 25,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:05:00.000Z',
};

describe('crawl destinations', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('create: sends the bucket, credentials and format from the flags and never prints the credentials', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: destination({ format: 'csv', gzip: false }) }));
    const run = await runCli(
      [
        ...['destinations', 'create', '--project', 'prj_1', '--bucket', 'acme-results', '--region', 'eu-central-1', '--prefix', 'crawl/amazon'],
        ...['--endpoint', 'https://s3.example.test', '--format', 'csv', '--no-gzip', '--access-key-id', 'AKIDEXAMPLE', '--secret-access-key', 'sekrit-value'],
      ],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/projects/prj_1/destinations' });
    expect(api.requests[0]?.body).toEqual({
      type: 's3',
      bucket: 'acme-results',
      region: 'eu-central-1',
      prefix: 'crawl/amazon',
      endpoint: 'https://s3.example.test',
      format: 'csv',
      gzip: false,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'sekrit-value',
    });
    expect(run.stdout).toBe('Created destination dst_1: s3://acme-results/crawl/amazon/ at https://s3.example.test (test object written)\n');
    expect(run.stdout).not.toContain('sekrit-value');
  });

  it('create: missing credentials or an unknown format are usage errors (exit 2) and nothing is sent', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 201, { data: destination() }));
    const base = ['destinations', 'create', '--project', 'prj_1', '--bucket', 'b-1', '--region', 'us-east-1'];
    const noKeys = await runCli(base, { baseUrl: api.url });
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toMatch(/credentials are needed: --access-key-id and --secret-access-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    const badFormat = await runCli([...base, '--access-key-id', 'a', '--secret-access-key', 's', '--format', 'parquet'], { baseUrl: api.url });
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('--format is ndjson, csv, json, got "parquet"');
    expect(api.requests).toEqual([]);
  });

  it("create: the store's refusal comes back as exit 1 with its reason", async () => {
    const reason = 'The test object could not be written: NoSuchBucket: The specified bucket does not exist';
    api = await startStubApi((_request, res) => sendJson(res, 400, errorEnvelope('VALIDATION_ERROR', reason)));
    const run = await runCli(
      ['destinations', 'create', '--project', 'prj_1', '--bucket', 'nope', '--region', 'us-east-1', '--access-key-id', 'a', '--secret-access-key', 's'],
      { baseUrl: api.url },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`crawl: ${reason} (VALIDATION_ERROR, HTTP 400)`);
  });

  it('list, get, test and delete', async () => {
    api = await startStubApi((request, res) => {
      if (request.method === 'GET' && request.path === '/projects/prj_1/destinations')
        return sendJson(res, 200, {
          data: [destination(), destination({ id: 'dst_2', name: '', lastTestError: 'AccessDenied: no' })],
          meta: { total: 2, limit: 100, offset: 0 },
        });
      if (request.method === 'GET') return sendJson(res, 200, { data: destination() });
      if (request.path.endsWith('/test'))
        return sendJson(res, 200, { data: { ok: false, key: 'crawl/amazon/_crawl-test/x.json', latencyMs: 9, error: 'AccessDenied: no' } });
      return sendJson(res, 204, null);
    });
    const list = await runCli(['destinations', 'list', '--project', 'prj_1'], { baseUrl: api.url });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/dst_1\s+warehouse\s+s3:\/\/acme-results\/crawl\/amazon\/ at https:\/\/s3\.example\.test\s+ndjson\.gz\s+ok /);
    expect(list.stdout).toMatch(/dst_2\s+-\s+.*failed .*: AccessDenied: no/);
    const got = await runCli(['destinations', 'get', 'dst_1', '--json'], { baseUrl: api.url });
    expect(JSON.parse(got.stdout)).toMatchObject({ id: 'dst_1', bucket: 'acme-results' });
    const test = await runCli(['destinations', 'test', 'dst_1'], { baseUrl: api.url });
    expect(test.code).toBe(1);
    expect(test.stdout).toBe('Could not write crawl/amazon/_crawl-test/x.json: AccessDenied: no\n');
    const deleted = await runCli(['destinations', 'delete', 'dst_1'], { baseUrl: api.url });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /projects/prj_1/destinations',
      'GET /destinations/dst_1',
      'POST /destinations/dst_1/test',
      'DELETE /destinations/dst_1',
    ]);
  });

  it("jobs deliveries shows each attempt with the store's reason; jobs replay-delivery asks for another", async () => {
    api = await startStubApi((request, res) => {
      if (request.method === 'GET') return sendJson(res, 200, { data: [delivery], meta: { total: 1, limit: 20, offset: 0 } });
      return sendJson(res, 202, { data: { ...delivery, status: 'pending' } });
    });
    const run = await runCli(['jobs', 'deliveries', 'job_1'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('dsd_1 to dst_1: delivered, 2 attempt(s), 25 rows\n  manifest crawl/amazon/job_1/manifest.json\n');
    expect(run.stdout).toMatch(/ {2}1\. .* failed: NoSuchBucket: The specified bucket does not exist 12 ms\n {2}2\. .* ok \(replay\) 40 ms/);
    const replay = await runCli(['jobs', 'replay-delivery', 'job_1', 'dsd_1'], { baseUrl: api.url });
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toBe('Replaying delivery dsd_1 (pending)\n');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /jobs/job_1/deliveries', 'POST /jobs/job_1/deliveries/dsd_1/replay']);
  });
});
