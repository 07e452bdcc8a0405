import type { Readable } from 'node:stream';

/**
 * The port a destination writes through (catalog's destinations feature depends on this shape, not
 * on an SDK): put a small object, stream a large one, and read one back (tests, the connection
 * test). Every failure is an ObjectSinkError carrying the store's own reason.
 */
export interface ObjectSink {
  /** Writes a small object in one request. */
  put(key: string, body: string | Uint8Array, contentType: string): Promise<void>;
  /** Streams an object of unknown length (multipart above the part size); never buffers it whole. */
  upload(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object's bytes (small objects: tests and checks). */
  get(key: string): Promise<Uint8Array>;
  /** Releases the connection pool. */
  close(): void;
}

/** Where and as whom a sink writes. */
export interface ObjectSinkSettings {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (R2, MinIO, GCS); AWS S3 when absent. Path-style addressing when set. */
  endpoint?: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
}

export type ObjectSinkFactory = (settings: ObjectSinkSettings) => ObjectSink;

/** A store refused or could not be reached; `message` is the store's reason as it gave it. */
export class ObjectSinkError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectSinkError';
    this.code = code;
  }
}
