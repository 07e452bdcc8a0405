import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/**
 * Where the destination tests find an S3-compatible server: `TEST_S3_URL` (CI starts gofakes3 with
 * `scripts/s3.sh`). In CI a missing or silent server is an error; elsewhere the tests are skipped
 * and say why.
 */
export type S3TestServerResult = { url: string; skipReason?: undefined } | { url?: undefined; skipReason: string };

/** Any key pair works with gofakes3; these are what the tests send. */
export const TEST_S3_CREDENTIALS = { accessKeyId: 'test-key', secretAccessKey: 'test-secret', region: 'us-east-1' } as const;

export async function s3TestServer(): Promise<S3TestServerResult> {
  const url = process.env.TEST_S3_URL;
  let reason: string;
  if (url) {
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      await answer.arrayBuffer();
      return { url };
    } catch (error) {
      reason = `the S3 server at TEST_S3_URL=${url} does not answer (${error instanceof Error ? error.message : String(error)})`;
    }
  } else {
    reason = 'no S3 server: TEST_S3_URL is unset. Run `scripts/s3.sh start` and set TEST_S3_URL to its output to test destinations.';
  }
  if (process.env.CI === 'true') throw new Error(`CI requires the S3 integration tests: ${reason}`);
  return { skipReason: reason };
}

/** Creates a bucket (a fresh name per test keeps tests apart on one server). */
export async function createTestBucket(url: string, bucket: string): Promise<void> {
  const client = new S3Client({ endpoint: url, forcePathStyle: true, region: TEST_S3_CREDENTIALS.region, credentials: TEST_S3_CREDENTIALS });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}
