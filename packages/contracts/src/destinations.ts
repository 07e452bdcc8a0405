import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/**
 * Destinations: an S3-compatible bucket a project's job results are written to when a job ends
 * (docs/destinations.md). Credentials go in and are never shown again.
 */

export const DESTINATION_LIMITS = {
  destinationsPerProject: 20,
  listDefaultLimit: 20,
  listMaxLimit: 100,
  /** Rows per part object (`part-00001.ndjson.gz` …). */
  rowsPerPart: 100_000,
} as const;

export const DestinationFormat = Type.Union([Type.Literal('ndjson'), Type.Literal('csv'), Type.Literal('json')], {
  description: 'How rows are written: one JSON object per line (ndjson), CSV with a header row, or a JSON array per part.',
});
export type DestinationFormat = Static<typeof DestinationFormat>;

export const CreateDestinationBody = Type.Object(
  {
    type: Type.Literal('s3', { description: 'Any S3-compatible store: AWS S3, Cloudflare R2, GCS interoperability, MinIO.' }),
    name: Type.Optional(Type.String({ maxLength: 100, description: 'A label for people.' })),
    bucket: Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', examples: ['acme-crawl-results'] }),
    prefix: Type.Optional(
      Type.String({
        maxLength: 512,
        pattern: '^[^\\\\]*$',
        default: '',
        examples: ['crawl/amazon'],
        description: 'Key prefix; objects land under `<prefix>/<jobId>/`. Leading and trailing slashes are dropped.',
      }),
    ),
    region: Type.String({ minLength: 1, maxLength: 64, examples: ['eu-central-1'], description: 'The signing region (`auto` for R2).' }),
    endpoint: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        examples: ['https://<account>.r2.cloudflarestorage.com'],
        description: 'An S3-compatible endpoint; AWS S3 when absent. It passes the same address rules as webhook URLs (no private or loopback addresses).',
      }),
    ),
    accessKeyId: Type.String({ minLength: 1, maxLength: 256, description: 'Stored encrypted; never returned.' }),
    secretAccessKey: Type.String({ minLength: 1, maxLength: 512, description: 'Stored encrypted; never returned.' }),
    format: Type.Optional(DestinationFormat),
    gzip: Type.Optional(Type.Boolean({ default: true, description: 'Gzip every part (`.gz` suffix). Default true.' })),
  },
  { additionalProperties: false },
);
export type CreateDestinationBody = Static<typeof CreateDestinationBody>;

export const Destination = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  organizationId: Type.String(),
  type: Type.Literal('s3'),
  name: Type.String(),
  bucket: Type.String(),
  prefix: Type.String(),
  region: Type.String(),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  format: DestinationFormat,
  gzip: Type.Boolean(),
  lastTestAt: Type.Union([Timestamp, Type.Null()]),
  lastTestError: Type.Union([Type.String(), Type.Null()], { description: "The store's reason when the last test failed." }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Destination = Static<typeof Destination>;

export const DestinationTestResult = Type.Object({
  ok: Type.Boolean(),
  key: Type.String({ description: 'The test object written.' }),
  latencyMs: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()], { description: "The store's reason when the write failed." }),
});
export type DestinationTestResult = Static<typeof DestinationTestResult>;

export const ListDestinationsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: DESTINATION_LIMITS.listDefaultLimit,
        description: `Capped at ${DESTINATION_LIMITS.listMaxLimit}.`,
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListDestinationsQuery = Static<typeof ListDestinationsQuery>;

export const DestinationDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('delivered'), Type.Literal('failed')]);
export type DestinationDeliveryStatus = Static<typeof DestinationDeliveryStatus>;

export const DestinationAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Timestamp,
  ok: Type.Boolean(),
  latencyMs: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()]),
  replay: Type.Boolean(),
});
export type DestinationAttempt = Static<typeof DestinationAttempt>;

export const ManifestPart = Type.Object({
  key: Type.String(),
  rows: Type.Integer({ minimum: 0 }),
  bytes: Type.Integer({ minimum: 0, description: 'Bytes as stored (after gzip).' }),
  sha256: Type.String({ description: 'Hex SHA-256 of the stored bytes.' }),
});
export type ManifestPart = Static<typeof ManifestPart>;

/** `<prefix>/<jobId>/manifest.json`, written last: its presence means every part is complete. */
export const DeliveryManifest = Type.Object({
  jobId: Type.String(),
  projectId: Type.String(),
  jobType: Type.String(),
  schema: Type.String({ description: 'The `$id` of the record schema every row follows (docs/data.md).' }),
  format: DestinationFormat,
  gzip: Type.Boolean(),
  rows: Type.Integer({ minimum: 0 }),
  parts: Type.Array(ManifestPart),
  writtenAt: Timestamp,
});
export type DeliveryManifest = Static<typeof DeliveryManifest>;

export const DestinationDelivery = Type.Object({
  id: Type.String(),
  jobId: Type.String(),
  destinationId: Type.String(),
  status: DestinationDeliveryStatus,
  attempts: Type.Array(DestinationAttempt),
  attemptCount: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  deliveredAt: Type.Union([Timestamp, Type.Null()]),
  manifestKey: Type.Union([Type.String(), Type.Null()], { description: 'Set once delivered.' }),
  rows: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type DestinationDelivery = Static<typeof DestinationDelivery>;

export const JobDeliveryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type JobDeliveryParams = Static<typeof JobDeliveryParams>;
