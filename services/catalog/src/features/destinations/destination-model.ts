import type { Destination, DestinationAttempt, DestinationDelivery, DestinationDeliveryStatus, DestinationFormat } from '@crawl/contracts';
import type { Document } from '@crawl/storage';

export const DESTINATIONS_COLLECTION = 'destinations';
export const DESTINATION_DELIVERIES_COLLECTION = 'destination_deliveries';

export interface DestinationDoc extends Document {
  organizationId: string;
  projectId: string;
  type: 's3';
  name: string;
  bucket: string;
  /** Without leading or trailing slashes; '' for the bucket's root. */
  prefix: string;
  region: string;
  endpoint: string | null;
  /** `{accessKeyId, secretAccessKey}` as JSON, sealed with the secret box (AES-256-GCM). */
  sealedCredentials: string;
  format: DestinationFormat;
  gzip: boolean;
  lastTestAt: string | null;
  lastTestError: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface DestinationDeliveryDoc extends Document {
  organizationId: string;
  projectId: string;
  jobId: string;
  destinationId: string;
  status: DestinationDeliveryStatus;
  attempts: DestinationAttempt[];
  attemptCount: number;
  /** Attempts since created or last replayed (indexes the retry schedule). */
  cycleAttempts: number;
  replay: boolean;
  nextAttemptAt: string | null;
  /** Set while an attempt runs; an attempt that outlives it (a dead process) is taken up again. */
  leaseUntil: string | null;
  lastError: string | null;
  deliveredAt: string | null;
  manifestKey: string | null;
  rows: number | null;
  createdAt: string;
  updatedAt: string;
}

/** What a destination shows: never its credentials. */
export function toDestinationView(doc: DestinationDoc): Destination {
  return {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    type: doc.type,
    name: doc.name,
    bucket: doc.bucket,
    prefix: doc.prefix,
    region: doc.region,
    endpoint: doc.endpoint,
    format: doc.format,
    gzip: doc.gzip,
    lastTestAt: doc.lastTestAt,
    lastTestError: doc.lastTestError,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toDestinationDeliveryView(doc: DestinationDeliveryDoc): DestinationDelivery {
  return {
    id: doc._id,
    jobId: doc.jobId,
    destinationId: doc.destinationId,
    status: doc.status,
    attempts: doc.attempts,
    attemptCount: doc.attemptCount,
    nextAttemptAt: doc.nextAttemptAt,
    lastError: doc.lastError,
    deliveredAt: doc.deliveredAt,
    manifestKey: doc.manifestKey,
    rows: doc.rows,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** `a//b/` → `a/b`: keys never start with or double a slash. */
export function normalisePrefix(prefix: string | undefined): string {
  return (prefix ?? '')
    .split('/')
    .filter((part) => part !== '')
    .join('/');
}

/** `<prefix>/<rest>`, or `<rest>` at the bucket's root. */
export function keyUnder(prefix: string, rest: string): string {
  return prefix === '' ? rest : `${prefix}/${rest}`;
}
