/** A JSON Schema as the OpenAPI document carries it (TypeBox output: no $ref in requests). */
export type JsonSchema = { [keyword: string]: unknown };

export interface OperationParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

/** One method on one path of the public API, as the fuzzer needs it. */
export interface Operation {
  method: string;
  /** The OpenAPI template, e.g. `/projects/{projectId}/jobs`. */
  path: string;
  pathParameters: OperationParameter[];
  queryParameters: OperationParameter[];
  body?: JsonSchema;
  secured: boolean;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** Every operation of a served `/openapi.json`, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({ name: p.name, in: p.in as 'path' | 'query', required: p.required === true || p.in === 'path', schema: p.schema ?? {} }));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((p) => p.in === 'path'),
        queryParameters: parameters.filter((p) => p.in === 'query'),
        ...(body ? { body } : {}),
        secured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** The kinds of resource an id in a path names; the fuzzer keeps a pool of real ids per kind and tenant. */
export const RESOURCE_KINDS = ['project', 'job', 'schedule', 'webhook', 'delivery', 'monitor', 'destination', 'target-list', 'organization'] as const;

/**
 * Path parameters that name a product or a keyword of history, not a resource someone owns: any
 * organization may ask for any ASIN or keyword and gets its own history of it (none: an empty answer).
 */
export const NATURAL_KEY_PARAMETERS: readonly string[] = ['asin', 'keyword'];
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** `/projects/{id}` → project, `{projectId}` → project, `/webhooks/{id}/deliveries/{deliveryId}` → delivery. */
export function resourceKindOf(path: string, parameter: string): ResourceKind | undefined {
  const named = /^(\w+)Id$/.exec(parameter)?.[1];
  const candidate = named ?? singular(segmentBefore(path, parameter));
  return (RESOURCE_KINDS as readonly string[]).includes(candidate ?? '') ? (candidate as ResourceKind) : undefined;
}

function segmentBefore(path: string, parameter: string): string | undefined {
  const segments = path.split('/');
  const index = segments.indexOf(`{${parameter}}`);
  return index > 0 ? segments[index - 1] : undefined;
}

function singular(segment: string | undefined): string | undefined {
  return segment?.endsWith('s') ? segment.slice(0, -1) : segment;
}

export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}
