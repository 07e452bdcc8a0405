import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectSinkError, type ObjectSink } from './object-sink.ts';
import { s3ObjectSink } from './s3-object-sink.ts';
import { createTestBucket, s3TestServer, TEST_S3_CREDENTIALS } from './testing/s3-test-server.ts';

const found = await s3TestServer();

describe.skipIf(found.skipReason !== undefined)(`S3ObjectSink against the S3 server ${found.skipReason ?? ''}`, () => {
  const url = found.url as string;
  const bucket = `sink-${randomUUID().slice(0, 8)}`;
  let sink: ObjectSink;

  beforeAll(async () => {
    await createTestBucket(url, bucket);
    sink = s3ObjectSink({ bucket, endpoint: url, ...TEST_S3_CREDENTIALS });
  });
  afterAll(() => sink.close());

  it('puts a small object and reads the same bytes back', async () => {
    await sink.put('a/b.json', '{"ok":true}', 'application/json');
    expect(Buffer.from(await sink.get('a/b.json')).toString()).toBe('{"ok":true}');
  });

  it('streams an object larger than one part (multipart) and reads it back whole', async () => {
    const line = `${'x'.repeat(1023)}\n`;
    const lines = 6 * 1024 + 7; // a little over 6 MiB: two parts
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === lines) return this.push(null);
        sent += 1;
        this.push(line);
      },
    });
    await sink.upload('big/part-00001.ndjson', body, 'application/x-ndjson');
    const back = await sink.get('big/part-00001.ndjson');
    expect(back.byteLength).toBe(lines * 1024);
    expect(Buffer.from(back.subarray(0, 1024)).toString()).toBe(line);
  });

  it("fails with the store's reason when the bucket does not exist", async () => {
    const missing = s3ObjectSink({ bucket: `missing-${randomUUID().slice(0, 8)}`, endpoint: url, ...TEST_S3_CREDENTIALS });
    try {
      const failure = await missing.put('probe.txt', 'x', 'text/plain').then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ObjectSinkError);
      expect((failure as ObjectSinkError).code).toBe('NoSuchBucket');
      expect((failure as ObjectSinkError).message).toMatch(/^NoSuchBucket: /);
    } finally {
      missing.close();
    }
  });

  it('fails a streamed upload into a missing bucket without hanging', async () => {
    const missing = s3ObjectSink({ bucket: `missing-${randomUUID().slice(0, 8)}`, endpoint: url, ...TEST_S3_CREDENTIALS });
    try {
      await expect(missing.upload('x.ndjson', Readable.from(['a\n', 'b\n']), 'application/x-ndjson')).rejects.toBeInstanceOf(ObjectSinkError);
    } finally {
      missing.close();
    }
  });
});

describe('S3ObjectSink without a reachable store', () => {
  it('fails with the network reason', async () => {
    const sink = s3ObjectSink({ bucket: 'b', endpoint: 'http://127.0.0.1:9', ...TEST_S3_CREDENTIALS });
    try {
      const failure = await sink.put('k', 'v', 'text/plain').then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ObjectSinkError);
      expect((failure as ObjectSinkError).message).toMatch(/ECONNREFUSED/);
    } finally {
      sink.close();
    }
  });
});
