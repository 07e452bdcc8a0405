import type { DocumentNode } from './document-node.ts';
import { ErrorEnvelope, HealthRoutes, PUBLIC_OPERATIONS, type PublicOperation, type RouteSpec } from '@crawl/contracts';
import { errorResponse } from './error-responses.ts';
import { referencingShared } from './shared-components.ts';

const operations = new Map(PUBLIC_OPERATIONS.map((operation) => [`${operation.spec.method} ${operation.spec.url}`, operation]));

/** The public operation behind a registered route, whichever process serves it (owner or gateway). */
export function operationOf(method: string | readonly string[], url: string): PublicOperation | undefined {
  const first = typeof method === 'string' ? method : method[0];
  return operations.get(`${first} ${url}`);
}

/**
 * `security` of an operation: none on public routes (so generators send no token), an optional
 * bearer where one is read if present, a bearer everywhere else.
 */
function securityOf(access: RouteSpec['access']): Array<Record<string, string[]>> {
  if (access === 'public') return [];
  if (access === 'optional') return [{}, { bearerAuth: [] }];
  return [{ bearerAuth: [] }];
}

/** Each response of the route: the envelope as the shared component, a raw route's file by media type. */
function responsesOf(spec: RouteSpec): DocumentNode {
  const responses: DocumentNode = {};
  for (const [status, schema] of Object.entries(spec.schema.response)) {
    responses[status] = schema === ErrorEnvelope ? errorResponse(Number(status)) : schema;
  }
  const file = spec.rawResponse;
  if (file) {
    responses[String(file.status)] = {
      description: file.description,
      ...(file.headers ? { headers: file.headers } : {}),
      content: Object.fromEntries(Object.entries(file.content).map(([mediaType, schema]) => [mediaType, { schema: referencingShared(schema) }])),
    };
  }
  return responses;
}

/** An upload's body, by the media types the route streams (the handler reads it unparsed). */
function streamedBodyOf(spec: RouteSpec): DocumentNode {
  const streamed = spec.streamedBody;
  if (!streamed) return {};
  return {
    consumes: [...streamed.contentTypes],
    body: { type: 'string', description: `Sent as it is read, at most ${streamed.maxBytes} bytes.` },
  };
}

/**
 * The document's view of one registered route: named after its route table key, secured by its
 * access level, its responses as above. `/health` is registered by every process outside the route
 * tables (hidden there), so its contract supplies what the document shows.
 */
export function documentRoute(method: string | readonly string[], url: string, schema: object): { schema: object; hidden: boolean } {
  const operation = operationOf(method, url) ?? (url === HealthRoutes.health.url ? { operationId: 'health', spec: HealthRoutes.health } : undefined);
  if (!operation || method === 'HEAD') return { schema, hidden: true };
  const { spec } = operation;
  const { hide: _hide, ...visible } = schema as { hide?: boolean };
  return {
    hidden: false,
    schema: {
      ...visible,
      ...spec.schema,
      tags: [...spec.schema.tags],
      ...streamedBodyOf(spec),
      operationId: operation.operationId,
      security: securityOf(spec.access),
      response: responsesOf(spec),
    },
  };
}
