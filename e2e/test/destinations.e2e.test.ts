/**
 * Destinations end to end in the all-in-one process (run-modes.ts): a user adds an S3-compatible
 * bucket through the public API (a test object is written first), runs a details job naming it,
 * and finds the job's records in the bucket as gzipped NDJSON parts with a manifest whose counts
 * and checksums match, read back with the AWS SDK's own client. A delivery to a bucket that is gone
 * is listed on the job with the store's reason and succeeds on replay once the bucket is back.
 * The S3 server is `scripts/s3.sh` (TEST_S3_URL); with CI=true a missing one fails the suite.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { DeliveryManifest, Destination, DestinationDelivery, Job, JobResults, Project } from '@crawl/contracts';
import { s3TestServer, TEST_S3_CREDENTIALS } from '@crawl/destination-s3/test-server';
import { CATEGORIES, createSimulator, makeCatalogAsin, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './http-call.ts';
import { runModes, type RunningService } from './run-modes.ts';

const SECRET = 'destinations-e2e-secret-that-is-long-enough-0123456789';
const WAIT = { timeout: 90_000, interval: 200 };
/** The S3 server listens on loopback: the switches that let webhooks reach localhost let destinations reach it. */
const LOCAL_TARGETS = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_REQUIRE_HTTPS: 'false' };

const s3 = await s3TestServer();
const modes = (await runModes()).filter((mode) => mode.name === 'all-in-one');

describe.each(modes)('destinations end to end: $name', (mode) => {
  const skipReason = mode.skipReason ?? s3.skipReason;
  if (skipReason) {
    it('needs its backends and an S3 server', (context) => {
      console.warn(`[destinations e2e: ${mode.name} skipped] ${skipReason}`);
      context.skip(skipReason);
    });
    return;
  }

  const endpoint = s3.url as string;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: TEST_S3_CREDENTIALS.region, credentials: TEST_S3_CREDENTIALS });
  const run = randomUUID().slice(0, 8);
  let sim: Simulator;
  let service: RunningService;
  let token: string;
  let projectId: string;

  async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T; body: any }> {
    const res = await call(service.url, method, path, { token, body });
    return { status: res.status, data: res.body?.data as T, body: res.body };
  }
  const bytesOf = async (bucket: string, key: string): Promise<Buffer> =>
    Buffer.from(await ((await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body?.transformToByteArray() ?? new Uint8Array()));
  const addDestination = (bucket: string) =>
    api<Destination>('POST', `/projects/${projectId}/destinations`, {
      type: 's3',
      bucket,
      prefix: 'crawl/amazon',
      region: TEST_S3_CREDENTIALS.region,
      endpoint,
      accessKeyId: TEST_S3_CREDENTIALS.accessKeyId,
      secretAccessKey: TEST_S3_CREDENTIALS.secretAccessKey,
    });
  /** Creates a details job writing to `destinationId` and waits for it to end. */
  async function finishedJob(destinationId: string, targets: string[]): Promise<Job> {
    const created = await api<Job>('POST', `/projects/${projectId}/jobs`, { type: 'details', targets, config: { destinationId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let job = created.data;
    await vi.waitFor(async () => {
      job = (await api<Job>('GET', `/jobs/${created.data.id}`)).data;
      expect(['completed', 'failed', 'cancelled'], JSON.stringify(job)).toContain(job.status);
    }, WAIT);
    return job;
  }
  const deliveriesOf = async (jobId: string) => (await api<DestinationDelivery[]>('GET', `/jobs/${jobId}/deliveries`)).data;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 28 });
    service = await mode.start(sim, SECRET, LOCAL_TARGETS);
    const registered = await call(service.url, 'POST', '/auth/register', {
      body: { email: `destinations-${Date.now()}@example.com`, password: 'a-long-enough-password' },
    });
    expect(registered.status).toBe(201);
    token = registered.body.accessToken;
    const project = await api<Project>('POST', '/projects', { name: 'Deliveries' });
    expect(project.status).toBe(201);
    projectId = project.data.id;
  }, 150_000);

  afterAll(async () => {
    client.destroy();
    const codes = await service?.stop();
    await sim?.close();
    if (codes) expect(Object.entries(codes).filter(([, code]) => code !== 0)).toEqual([]);
  }, 60_000);

  it("writes a finished job's records to the bucket as parts and a manifest whose counts and checksums match", async () => {
    const bucket = `e2e-dst-${run}`;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const destination = await addDestination(bucket);
    expect(destination.status, JSON.stringify(destination.body)).toBe(201);
    expect(JSON.stringify(destination.body)).not.toContain(TEST_S3_CREDENTIALS.secretAccessKey);
    const tests = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'crawl/amazon/_crawl-test/' }));
    expect(tests.KeyCount).toBe(1);

    const targets = [0, 1, 2].map((n) => makeCatalogAsin(n % CATEGORIES.length, `destinations-${n}`));
    const job = await finishedJob(destination.data.id, targets);
    expect(job.status).toBe('completed');
    await vi.waitFor(async () => expect((await deliveriesOf(job.id))[0]?.status).toBe('delivered'), WAIT);
    const [delivery] = await deliveriesOf(job.id);
    const results = (await api<JobResults>('GET', `/jobs/${job.id}/results?pageSize=200`)).data;
    expect(delivery).toMatchObject({
      destinationId: destination.data.id,
      attemptCount: 1,
      rows: results.items.length,
      manifestKey: `crawl/amazon/${job.id}/manifest.json`,
    });

    const manifest = JSON.parse((await bytesOf(bucket, `crawl/amazon/${job.id}/manifest.json`)).toString()) as DeliveryManifest;
    expect(manifest).toMatchObject({ jobId: job.id, projectId, jobType: 'details', format: 'ndjson', gzip: true, rows: results.items.length });
    expect(manifest.parts.map((part) => part.key)).toEqual([`crawl/amazon/${job.id}/part-00001.ndjson.gz`]);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `crawl/amazon/${job.id}/` }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([`crawl/amazon/${job.id}/manifest.json`, `crawl/amazon/${job.id}/part-00001.ndjson.gz`]);
    const part = await bytesOf(bucket, manifest.parts[0]?.key as string);
    expect(part.byteLength).toBe(manifest.parts[0]?.bytes);
    expect(createHash('sha256').update(part).digest('hex')).toBe(manifest.parts[0]?.sha256);
    const rows = gunzipSync(part)
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { asin?: string });
    expect(rows).toHaveLength(manifest.rows);
    expect(rows.map((row) => row.asin).sort()).toEqual(results.items.map((item) => (item as { asin?: string }).asin).sort());
  });

  it("lists a delivery to a bucket that is gone with the store's reason, and replays it once the bucket is back", async () => {
    const bucket = `e2e-gone-${run}`;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const destination = await addDestination(bucket);
    expect(destination.status, JSON.stringify(destination.body)).toBe(201);
    // The bucket goes away after the destination was added (its test object first: a bucket must be empty to go).
    const written = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    for (const object of written.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));

    const job = await finishedJob(destination.data.id, [makeCatalogAsin(3 % CATEGORIES.length, 'destinations-3')]);
    await vi.waitFor(async () => expect((await deliveriesOf(job.id))[0]?.attemptCount).toBeGreaterThanOrEqual(1), WAIT);
    const [failed] = await deliveriesOf(job.id);
    expect(failed?.status).not.toBe('delivered');
    expect(failed?.attempts[0]).toMatchObject({ ok: false, replay: false });
    expect(failed?.attempts[0]?.error).toMatch(/NoSuchBucket/);
    expect(failed?.lastError).toMatch(/NoSuchBucket/);
    expect(failed?.manifestKey).toBeNull();

    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const replay = await api<DestinationDelivery>('POST', `/jobs/${job.id}/deliveries/${failed?.id}/replay`);
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    await vi.waitFor(async () => expect((await deliveriesOf(job.id))[0]?.status).toBe('delivered'), WAIT);
    const [delivered] = await deliveriesOf(job.id);
    expect(delivered?.attempts.at(-1)).toMatchObject({ ok: true, replay: true, error: null });
    const manifest = JSON.parse((await bytesOf(bucket, `crawl/amazon/${job.id}/manifest.json`)).toString()) as DeliveryManifest;
    expect(manifest).toMatchObject({ jobId: job.id, rows: delivered?.rows });
  });

  it('refuses a job naming a destination the organization does not have, naming it', async () => {
    const refused = await api('POST', `/projects/${projectId}/jobs`, { type: 'details', targets: ['B0SIM00001'], config: { destinationId: 'dst_nowhere' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('config.destinationId "dst_nowhere" is not a destination of this organization');
  });
});
