import type { DocumentNode } from './document-node.ts';
import { ErrorEnvelope } from '@crawl/contracts';

/** Where the envelope lives in the document: one component every error response points at. */
export const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

/** The envelope as a plain JSON Schema component (TypeBox's `$id` names the component instead). */
export function errorEnvelopeComponent(): DocumentNode {
  const { $id: _id, ...schema } = JSON.parse(JSON.stringify(ErrorEnvelope)) as DocumentNode;
  return schema;
}

/** What each error status means on this API (docs/api.md, Errors), with the code it carries. */
const MEANINGS: Readonly<Record<number, string>> = {
  400: '`VALIDATION_ERROR`: invalid body, query or path, or malformed JSON',
  401: '`UNAUTHORIZED`: missing, expired or invalid token (`INVALID_CREDENTIALS` for a wrong email or password)',
  402: '`INSUFFICIENT_CREDITS`: the credit balance is too low',
  403: '`FORBIDDEN`: monthly quota reached, or another kind of token is needed',
  404: '`NOT_FOUND`: unknown resource, or one of another organization',
  409: "`CONFLICT`: the resource's state does not allow it",
  413: '`PAYLOAD_TOO_LARGE`: the body is over the limit',
  415: '`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON',
  429: '`RATE_LIMIT_EXCEEDED`: throttled; `Retry-After` says when to come back',
  431: '`VALIDATION_ERROR`: the request line and headers are over 16 KiB; the connection is closed',
  502: '`BAD_GATEWAY`: an internal service answered something unusable',
  503: '`SERVICE_UNAVAILABLE`: a dependency is unavailable; `Retry-After` says when to retry',
  504: '`GATEWAY_TIMEOUT`: an internal service did not answer in time',
};

const RETRY_AFTER = { 'retry-after': { type: 'integer', minimum: 0, description: 'Seconds to wait before trying again.' } };

/** An error response of the document: its meaning, the shared envelope, `Retry-After` where one is sent. */
export function errorResponse(status: number): DocumentNode {
  return {
    description: MEANINGS[status] ?? 'An error, described by the envelope',
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    content: { 'application/json': { schema: { $ref: ERROR_ENVELOPE_REF } } },
  };
}
