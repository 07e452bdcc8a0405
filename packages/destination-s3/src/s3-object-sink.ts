import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ObjectSinkError, type ObjectSink, type ObjectSinkSettings } from './object-sink.ts';

/** Multipart part size: the S3 minimum, so a stream holds at most a few parts in memory. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts in flight at once per upload. */
const QUEUE_SIZE = 2;

/** The store's reason for a failure: its error code and message, or the network error. */
function reasonOf(error: unknown): ObjectSinkError {
  if (error instanceof ObjectSinkError) return error;
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    const message = error.message && error.message !== 'UnknownError' ? error.message : `HTTP ${status ?? '?'}`;
    return new ObjectSinkError(error.name, `${error.name}: ${message}`, { cause: error });
  }
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  return new ObjectSinkError(typeof code === 'string' ? code : 'NetworkError', typeof code === 'string' ? `${code}: ${text}` : text, { cause: error });
}

/** An ObjectSink on the AWS SDK v3 S3 client (any S3-compatible endpoint). */
export class S3ObjectSink implements ObjectSink {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(settings: ObjectSinkSettings) {
    this.#bucket = settings.bucket;
    this.#client = new S3Client({
      region: settings.region,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
      // Checksums only where the store asks for them: several S3-compatible stores refuse the
      // trailing checksums the SDK now adds by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
    });
  }

  async put(key: string, body: string | Uint8Array, contentType: string): Promise<void> {
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (error) {
      throw reasonOf(error);
    }
  }

  async upload(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: key, Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      throw reasonOf(error);
    }
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: key }));
      if (!answer.Body) return new Uint8Array();
      return await answer.Body.transformToByteArray();
    } catch (error) {
      throw reasonOf(error);
    }
  }

  close(): void {
    this.#client.destroy();
  }
}

export const s3ObjectSink = (settings: ObjectSinkSettings): ObjectSink => new S3ObjectSink(settings);
