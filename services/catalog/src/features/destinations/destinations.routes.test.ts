import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { s3ObjectSink } from '@crawl/destination-s3';
import { createTestBucket, s3TestServer, TEST_S3_CREDENTIALS } from '@crawl/destination-s3/test-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { searchRecords } from '../../testing/result-records.ts';
import { DESTINATIONS_COLLECTION } from './destination-model.ts';

const found = await s3TestServer();
/** The S3 server listens on loopback: the same switches that let webhooks reach localhost in tests. */
const { accessKeyId, secretAccessKey, region } = TEST_S3_CREDENTIALS;
const KEYS = { accessKeyId, secretAccessKey, region };
const LOCAL_TARGETS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_REQUIRE_HTTPS: 'false' };

describe.skipIf(found.skipReason !== undefined).each(testBackends())(
  `destination routes against the S3 server ($name) ${found.skipReason ?? ''}`,
  (backend) => {
    const url = found.url as string;
    const bucket = `dst-${randomUUID().slice(0, 8)}`;
    let h: CatalogHarness;
    let alice: HarnessUser;
    let mallory: HarnessUser;
    let projectId: string;
    const body = (extra: Record<string, unknown> = {}) => ({
      type: 's3',
      bucket,
      prefix: '/exports/amazon/',
      endpoint: url,
      ...KEYS,
      ...extra,
    });
    const create = (extra: Record<string, unknown> = {}, token = alice.token) =>
      h.request({ method: 'POST', url: `/projects/${projectId}/destinations`, token, body: body(extra) });
    const read = async (key: string) => {
      const sink = s3ObjectSink({ bucket, endpoint: url, ...TEST_S3_CREDENTIALS });
      try {
        return Buffer.from(await sink.get(key));
      } finally {
        sink.close();
      }
    };

    beforeAll(async () => {
      await createTestBucket(url, bucket);
      h = await startCatalogHarness({ env: { ...backend.env(), ...LOCAL_TARGETS } });
      alice = h.user();
      mallory = h.user();
      projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('creates a destination after a test write, never shows or stores the credentials in the clear, lists and gets it', async () => {
      const res = await create({ name: 'warehouse' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data).toMatchObject({
        type: 's3',
        name: 'warehouse',
        bucket,
        prefix: 'exports/amazon',
        endpoint: url,
        format: 'ndjson',
        gzip: true,
        lastTestError: null,
      });
      expect(res.text).not.toContain(TEST_S3_CREDENTIALS.secretAccessKey);
      expect(res.text).not.toContain(TEST_S3_CREDENTIALS.accessKeyId);
      const stored = await h.context.store.collection(DESTINATIONS_COLLECTION).findOne({ _id: res.body.data.id });
      expect(JSON.stringify(stored)).not.toContain(TEST_S3_CREDENTIALS.secretAccessKey);
      const list = await h.request({ method: 'GET', url: `/projects/${projectId}/destinations?limit=1`, token: alice.token });
      expect(list.status).toBe(200);
      expect(list.body.meta).toMatchObject({ limit: 1, offset: 0 });
      expect(list.body.data).toHaveLength(1);
      const got = await h.request({ method: 'GET', url: `/destinations/${res.body.data.id}`, token: alice.token });
      expect(got.body.data.id).toBe(res.body.data.id);
      expect((await h.request({ method: 'GET', url: `/destinations/${res.body.data.id}`, token: mallory.token })).status).toBe(404);
    });

    it("answers 400 with the store's reason when the test object cannot be written", async () => {
      const res = await create({ bucket: `nope-${randomUUID().slice(0, 8)}` });
      expect(res.status).toBe(400);
      expect(res.text).toContain('NoSuchBucket');
    });

    it('tests an existing destination on demand and deletes it', async () => {
      const id = (await create()).body.data.id;
      const test = await h.request({ method: 'POST', url: `/destinations/${id}/test`, token: alice.token });
      expect(test.status).toBe(200);
      expect(test.body.data).toMatchObject({ ok: true, error: null });
      expect(test.body.data.key).toMatch(/^exports\/amazon\/_crawl-test\//);
      expect((await read(test.body.data.key)).toString()).toContain(id);
      expect((await h.request({ method: 'DELETE', url: `/destinations/${id}`, token: alice.token })).status).toBe(204);
      expect((await h.request({ method: 'GET', url: `/destinations/${id}`, token: alice.token })).status).toBe(404);
    });

    it('refuses a job or schedule naming a destination the organization does not have, or one of another project (400 naming it)', async () => {
      const jobWith = (destinationId: string, project = projectId, token = alice.token) =>
        h.request({ method: 'POST', url: `/projects/${project}/jobs`, token, body: { type: 'search', targets: ['kw'], config: { destinationId } } });
      const missing = await jobWith('dst_missing');
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('config.destinationId "dst_missing" is not a destination of this organization');

      const ours = (await create()).body.data.id;
      const malloryProject = (await h.request({ method: 'POST', url: '/projects', token: mallory.token, body: { name: 'm' } })).body.data.id;
      const theirs = await jobWith(ours, malloryProject, mallory.token);
      expect(theirs.status).toBe(400);
      expect(theirs.body.error.message).toContain(`"${ours}" is not a destination of this organization`);

      const otherProject = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'q' } })).body.data.id;
      const elsewhere = await jobWith(ours, otherProject);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.error.message).toContain(`belongs to another project (${projectId})`);

      const schedule = (destinationId: string) =>
        h.request({
          method: 'POST',
          url: `/projects/${projectId}/schedules`,
          token: alice.token,
          body: { cron: '0 * * * *', crawlConfig: { type: 'search', targets: ['kw'], config: { destinationId } } },
        });
      const refused = await schedule('dst_missing');
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe('crawlConfig.config.destinationId "dst_missing" is not a destination of this organization');
      const accepted = await schedule(ours);
      expect(accepted.status, accepted.text).toBe(201);
      const patched = await h.request({
        method: 'PATCH',
        url: `/schedules/${accepted.body.data.id}`,
        token: alice.token,
        body: { crawlConfig: { type: 'search', targets: ['kw'], config: { destinationId: 'dst_gone' } } },
      });
      expect(patched.status).toBe(400);
      expect(patched.body.error.message).toContain('"dst_gone"');
    });

    it("writes a finished job's results as gzipped NDJSON parts and a manifest, and logs the delivery", async () => {
      const destinationId = (await create()).body.data.id;
      const job = await h.request({
        method: 'POST',
        url: `/projects/${projectId}/jobs`,
        token: alice.token,
        body: { type: 'search', targets: ['kw'], config: { destinationId } },
      });
      expect(job.status, job.text).toBe(201);
      const jobId = job.body.data.id;
      await h.claim(jobId, 0);
      const records = searchRecords(25);
      expect((await h.report(jobId, 0, { status: 'success', items: records })).status).toBeLessThan(300);
      await vi.waitUntil(
        async () => (await h.request({ method: 'GET', url: `/jobs/${jobId}/deliveries`, token: alice.token })).body.data[0]?.status === 'delivered',
        {
          timeout: 10_000,
          interval: 50,
        },
      );
      const log = (await h.request({ method: 'GET', url: `/jobs/${jobId}/deliveries`, token: alice.token })).body.data;
      expect(log[0]).toMatchObject({ destinationId, status: 'delivered', attemptCount: 1, rows: 25, manifestKey: `exports/amazon/${jobId}/manifest.json` });
      const manifest = JSON.parse((await read(`exports/amazon/${jobId}/manifest.json`)).toString());
      expect(manifest).toMatchObject({ jobId, jobType: 'search', format: 'ndjson', gzip: true, rows: 25 });
      expect(manifest.schema).toMatch(/search/i);
      expect(manifest.parts).toHaveLength(1);
      expect(manifest.parts[0].key).toBe(`exports/amazon/${jobId}/part-00001.ndjson.gz`);
      const stored = await read(manifest.parts[0].key);
      expect(stored.byteLength).toBe(manifest.parts[0].bytes);
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(stored).digest('hex')).toBe(manifest.parts[0].sha256);
      const lines = gunzipSync(stored).toString().trim().split('\n');
      expect(lines).toHaveLength(25);
      expect(JSON.parse(lines[0] as string).asin).toBe(records[0]?.asin);
      expect((await h.request({ method: 'GET', url: `/jobs/${jobId}/deliveries`, token: mallory.token })).status).toBe(404);

      const replay = await h.request({ method: 'POST', url: `/jobs/${jobId}/deliveries/${log[0].id}/replay`, token: alice.token });
      expect(replay.status).toBe(202);
      await vi.waitUntil(
        async () => (await h.request({ method: 'GET', url: `/jobs/${jobId}/deliveries`, token: alice.token })).body.data[0]?.attemptCount === 2,
        {
          timeout: 10_000,
          interval: 50,
        },
      );
      const replayed = (await h.request({ method: 'GET', url: `/jobs/${jobId}/deliveries`, token: alice.token })).body.data[0];
      expect(replayed.status).toBe('delivered');
      expect(replayed.attempts[1]).toMatchObject({ ok: true, replay: true });
    });
  },
);

describe.each(testBackends())('destination address rules ($name)', (backend) => {
  let h: CatalogHarness;
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a loopback or private endpoint unless the webhook switches allow it', async () => {
    h = await startCatalogHarness({ env: { ...backend.env(), WEBHOOK_REQUIRE_HTTPS: 'false' } });
    const alice = h.user();
    const projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
    for (const endpoint of ['http://127.0.0.1:9000', 'http://10.0.0.5', 'http://[::1]:9000', 'http://169.254.169.254']) {
      const res = await h.request({
        method: 'POST',
        url: `/projects/${projectId}/destinations`,
        token: alice.token,
        body: { type: 's3', bucket: 'bucket', endpoint, ...KEYS },
      });
      expect(res.status, endpoint).toBe(400);
      expect(res.text).toMatch(/endpoint points to a/);
    }
  });
});
