import type { WebhookDelivery, WebhookDeliveryStatus, WebhookDisabledReason, WebhookEndpoint, WebhookEventType } from '@crawl/contracts';
import { newId, type Document } from '@crawl/storage';

export const ENDPOINTS_COLLECTION = 'webhook_endpoints';
export const DELIVERIES_COLLECTION = 'webhook_deliveries';

export interface SealedSecret {
  /** AES-GCM sealed `whsec_…` (see SecretBox). */
  sealed: string;
  createdAt: string;
  /** Null for the current secret; set on a previous secret during the rotation overlap. */
  expiresAt: string | null;
}

export interface EndpointDoc extends Document {
  organizationId: string;
  projectId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  /** Current secret first. */
  secrets: SealedSecret[];
  failingSince: string | null;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface AttemptDoc {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  replay: boolean;
}

export interface DeliveryDoc extends Document {
  organizationId: string;
  projectId: string;
  endpointId: string;
  /** `webhook-id`: one per logical event, the same on every attempt and replay. */
  eventId: string;
  eventType: string;
  /** The exact JSON body every attempt sends. */
  body: string;
  status: WebhookDeliveryStatus;
  attempts: AttemptDoc[];
  attemptCount: number;
  /** Attempts since the delivery was created or last replayed (indexes the retry schedule). */
  cycleAttempts: number;
  replay: boolean;
  nextAttemptAt: string | null;
  /** The claim token of the queue message currently allowed to attempt this delivery. */
  claim: string | null;
  leaseUntil: string | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function previousSecretExpiresAt(doc: EndpointDoc, now: string): string | null {
  const expiries = doc.secrets.map((s) => s.expiresAt).filter((at): at is string => at !== null && at > now);
  return expiries.sort().at(-1) ?? null;
}

export function toEndpointView(doc: EndpointDoc, now: string): WebhookEndpoint {
  return {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    url: doc.url,
    description: doc.description,
    events: doc.events,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    failingSince: doc.failingSince,
    consecutiveFailures: doc.consecutiveFailures,
    lastSuccessAt: doc.lastSuccessAt,
    lastFailureAt: doc.lastFailureAt,
    previousSecretExpiresAt: previousSecretExpiresAt(doc, now),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toDeliveryView(doc: DeliveryDoc): WebhookDelivery {
  return {
    id: doc._id,
    endpointId: doc.endpointId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attempts: doc.attempts,
    attemptCount: doc.attemptCount,
    nextAttemptAt: doc.nextAttemptAt,
    lastError: doc.lastError,
    deliveredAt: doc.deliveredAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** A new delivery of one event to one endpoint, due now. */
export function newDelivery(endpoint: EndpointDoc, eventId: string, eventType: string, body: string, now: string): DeliveryDoc {
  return {
    _id: newId('whd_'),
    organizationId: endpoint.organizationId,
    projectId: endpoint.projectId,
    endpointId: endpoint._id,
    eventId,
    eventType,
    body,
    status: 'pending',
    attempts: [],
    attemptCount: 0,
    cycleAttempts: 0,
    replay: false,
    nextAttemptAt: now,
    claim: null,
    leaseUntil: null,
    lastError: null,
    deliveredAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
