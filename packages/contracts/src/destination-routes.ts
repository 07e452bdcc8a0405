import { Type } from '@sinclair/typebox';
import { ProjectIdParams } from './catalog.ts';
import { DataEnvelope, IdParams, ListEnvelope } from './common.ts';
import { CreateDestinationBody, Destination, DestinationDelivery, DestinationTestResult, JobDeliveryParams, ListDestinationsQuery } from './destinations.ts';
import { ErrorEnvelope } from './errors.ts';
import { defineRoutes, type RateLimitPolicy } from './route-spec.ts';

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** A test writes an object to someone's bucket: a budget per destination keeps it from being a write loop. */
export const DESTINATION_TEST_LIMIT: RateLimitPolicy = { name: 'destination-test', max: 5, timeWindowMs: 60_000, key: 'organization+id' };

/** Public destination routes, owned by catalog (see docs/destinations.md). */
export const DestinationRoutes = defineRoutes({
  createDestination: {
    method: 'POST',
    url: '/projects/:projectId/destinations',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Add an S3-compatible destination; a test object is written first (400 with the store’s reason when that fails)',
      tags: ['destinations'],
      params: ProjectIdParams,
      body: CreateDestinationBody,
      response: { 201: DataEnvelope(Destination), 400: E, ...authErrors, 404: E, 409: E },
    },
  },
  listDestinations: {
    method: 'GET',
    url: '/projects/:projectId/destinations',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List a project's destinations (credentials are never shown)",
      tags: ['destinations'],
      params: ProjectIdParams,
      querystring: ListDestinationsQuery,
      response: { 200: ListEnvelope(Destination), 400: E, ...authErrors, 404: E },
    },
  },
  getDestination: {
    method: 'GET',
    url: '/destinations/:id',
    owner: 'catalog',
    access: 'user',
    schema: { summary: 'Get a destination', tags: ['destinations'], params: IdParams, response: { 200: DataEnvelope(Destination), ...authErrors, 404: E } },
  },
  deleteDestination: {
    method: 'DELETE',
    url: '/destinations/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Delete a destination (jobs naming it deliver nowhere; objects already written stay)',
      tags: ['destinations'],
      params: IdParams,
      response: { 204: Type.Null(), ...authErrors, 404: E },
    },
  },
  testDestination: {
    method: 'POST',
    url: '/destinations/:id/test',
    owner: 'catalog',
    access: 'user',
    rateLimits: [DESTINATION_TEST_LIMIT],
    schema: {
      summary: 'Write a test object now and say how it went',
      tags: ['destinations'],
      params: IdParams,
      response: { 200: DataEnvelope(DestinationTestResult), ...authErrors, 404: E, 429: E },
    },
  },
  listJobDeliveries: {
    method: 'GET',
    url: '/jobs/:id/deliveries',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A job's deliveries to its destination, with every attempt",
      tags: ['destinations'],
      params: IdParams,
      response: { 200: ListEnvelope(DestinationDelivery), ...authErrors, 404: E },
    },
  },
  replayJobDelivery: {
    method: 'POST',
    url: '/jobs/:id/deliveries/:deliveryId/replay',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Write the job’s results to the destination again (a finished or failed delivery, due now)',
      tags: ['destinations'],
      params: JobDeliveryParams,
      response: { 202: DataEnvelope(DestinationDelivery), ...authErrors, 404: E, 409: E },
    },
  },
});
