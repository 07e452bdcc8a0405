import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** Limits and fixed rules of the webhooks API (documented in docs/webhooks.md). */
export const WEBHOOK_LIMITS = {
  urlMaxLength: 2048,
  descriptionMaxLength: 500,
  endpointsPerProject: 20,
  listDefaultLimit: 20,
  listMaxLimit: 100,
} as const;

/** Event types an endpoint can subscribe to. `webhook.test` is sent only by the test route. */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed', 'job.cancelled', 'schedule.failed', 'monitor.triggered', 'monitor.paused'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WebhookEventTypeSchema = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));

const WebhookUrl = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_LIMITS.urlMaxLength,
  description: 'https URL (http only where the operator allows it); private, loopback, link-local and metadata addresses are refused.',
  examples: ['https://example.com/hooks/crawl'],
});
const Description = Type.String({ maxLength: WEBHOOK_LIMITS.descriptionMaxLength });
const EventList = Type.Array(WebhookEventTypeSchema, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });

export const CreateWebhookBody = Type.Object(
  {
    url: WebhookUrl,
    events: Type.Optional(EventList),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(EventList),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WebhookDisabledReason = Type.Object({
  code: Type.Union([Type.Literal('gone'), Type.Literal('failing'), Type.Literal('user')], {
    description: '`gone`: the endpoint answered 410; `failing`: every attempt failed for the documented period; `user`: disabled through the API.',
  }),
  message: Type.String(),
  at: Timestamp,
});
export type WebhookDisabledReason = Static<typeof WebhookDisabledReason>;

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    organizationId: Type.String(),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(WebhookEventTypeSchema),
    enabled: Type.Boolean(),
    disabledReason: Type.Union([WebhookDisabledReason, Type.Null()]),
    failingSince: Type.Union([Timestamp, Type.Null()]),
    consecutiveFailures: Type.Integer({ minimum: 0 }),
    lastSuccessAt: Type.Union([Timestamp, Type.Null()]),
    lastFailureAt: Type.Union([Timestamp, Type.Null()]),
    previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], { description: 'While set, deliveries are signed with the previous secret too.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** The create and rotate responses: the only time the signing secret is shown. */
export const WebhookEndpointWithSecret = Type.Intersect([
  WebhookEndpoint,
  Type.Object({
    secret: Type.String({ description: '`whsec_` + base64 key. Shown once; store it now.', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }),
  }),
]);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('delivered'), Type.Literal('failed')]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  at: Timestamp,
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no response arrived (timeout, connection error, refused address).' }),
  latencyMs: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()]),
  responseBody: Type.Union([Type.String(), Type.Null()], { description: 'The first bytes of the response body.' }),
  replay: Type.Boolean(),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const WebhookDelivery = Type.Object(
  {
    id: Type.String(),
    endpointId: Type.String(),
    eventId: Type.String({ description: 'Sent as `webhook-id`; the same for every attempt and replay.' }),
    eventType: Type.String(),
    status: WebhookDeliveryStatus,
    attempts: Type.Array(WebhookAttempt),
    attemptCount: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Type.Union([Timestamp, Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    deliveredAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const ListDeliveriesQuery = Type.Object(
  {
    status: Type.Optional(WebhookDeliveryStatus),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, default: WEBHOOK_LIMITS.listDefaultLimit, description: `Capped at ${WEBHOOK_LIMITS.listMaxLimit}.` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const DeliveryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), deliveryId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type DeliveryParams = Static<typeof DeliveryParams>;

/** The body of every delivery (Standard Webhooks shape: type, timestamp, data; plus the event id). */
export const WebhookEventPayload = Type.Object({
  id: Type.String(),
  type: Type.String(),
  timestamp: Timestamp,
  data: Type.Object({}, { additionalProperties: true }),
});
export type WebhookEventPayload = Static<typeof WebhookEventPayload>;
