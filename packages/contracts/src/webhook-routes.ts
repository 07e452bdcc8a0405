import { Type } from '@sinclair/typebox';
import { ListWebhooksQuery, ProjectIdParams } from './catalog.ts';
import { DataEnvelope, IdParams, ListEnvelope } from './common.ts';
import { ErrorEnvelope } from './errors.ts';
import { defineRoutes, type RateLimitPolicy } from './route-spec.ts';
import {
  CreateWebhookBody,
  DeliveryParams,
  ListDeliveriesQuery,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './webhooks.ts';

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** Each test sends a real POST to the endpoint's URL: a budget per endpoint keeps the service from being used to flood one. */
export const WEBHOOK_TEST_LIMIT: RateLimitPolicy = { name: 'webhook-test', max: 5, timeWindowMs: 60_000, key: 'organization+id' };

/** Public webhook routes, owned by catalog (see docs/webhooks.md). */
export const WebhookRoutes = defineRoutes({
  createWebhook: {
    method: 'POST',
    url: '/projects/:projectId/webhooks',
    owner: 'catalog',
    access: 'user',
    noStore: true,
    schema: {
      summary: 'Register a webhook endpoint; the response shows its signing secret once',
      tags: ['webhooks'],
      params: ProjectIdParams,
      body: CreateWebhookBody,
      response: { 201: DataEnvelope(WebhookEndpointWithSecret), 400: E, ...authErrors, 404: E, 409: E },
    },
  },
  listWebhooks: {
    method: 'GET',
    url: '/projects/:projectId/webhooks',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List a project's webhook endpoints (secrets are never shown again)",
      tags: ['webhooks'],
      params: ProjectIdParams,
      querystring: ListWebhooksQuery,
      response: { 200: ListEnvelope(WebhookEndpoint), 400: E, ...authErrors, 404: E },
    },
  },
  updateWebhook: {
    method: 'PATCH',
    url: '/webhooks/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Change the URL, events, description, or enable/disable an endpoint',
      tags: ['webhooks'],
      params: IdParams,
      body: UpdateWebhookBody,
      response: { 200: DataEnvelope(WebhookEndpoint), 400: E, ...authErrors, 404: E },
    },
  },
  deleteWebhook: {
    method: 'DELETE',
    url: '/webhooks/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Delete an endpoint and its delivery log',
      tags: ['webhooks'],
      params: IdParams,
      response: { 204: Type.Null(), ...authErrors, 404: E },
    },
  },
  rotateWebhookSecret: {
    method: 'POST',
    url: '/webhooks/:id/rotate-secret',
    owner: 'catalog',
    access: 'user',
    noStore: true,
    schema: {
      summary: 'New signing secret (shown once); the previous one stays valid for the documented overlap',
      tags: ['webhooks'],
      params: IdParams,
      response: { 200: DataEnvelope(WebhookEndpointWithSecret), ...authErrors, 404: E },
    },
  },
  testWebhook: {
    method: 'POST',
    url: '/webhooks/:id/test',
    owner: 'catalog',
    access: 'user',
    rateLimits: [WEBHOOK_TEST_LIMIT],
    schema: {
      summary: 'Send a `webhook.test` event to the endpoint (5 per minute per endpoint)',
      tags: ['webhooks'],
      params: IdParams,
      response: { 202: DataEnvelope(WebhookDelivery), ...authErrors, 404: E, 409: E, 429: E },
    },
  },
  listWebhookDeliveries: {
    method: 'GET',
    url: '/webhooks/:id/deliveries',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "The endpoint's delivery log, newest first: attempts, status codes, latency, next retry",
      tags: ['webhooks'],
      params: IdParams,
      querystring: ListDeliveriesQuery,
      response: { 200: ListEnvelope(WebhookDelivery), 400: E, ...authErrors, 404: E },
    },
  },
  replayWebhookDelivery: {
    method: 'POST',
    url: '/webhooks/:id/deliveries/:deliveryId/replay',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Send a delivery again now (same event id, fresh timestamp and signature)',
      tags: ['webhooks'],
      params: DeliveryParams,
      response: { 202: DataEnvelope(WebhookDelivery), ...authErrors, 404: E, 409: E },
    },
  },
});
