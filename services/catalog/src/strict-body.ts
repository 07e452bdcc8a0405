import { errors } from '@crawl/errors';
import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { FastifyRequest } from 'fastify';

const TYPE_NAMES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.String]: 'a string',
  [ValueErrorType.Boolean]: 'a boolean',
  [ValueErrorType.Integer]: 'an integer',
  [ValueErrorType.Number]: 'a number',
  [ValueErrorType.Array]: 'an array',
  [ValueErrorType.Object]: 'an object',
};

function fieldName(path: string): string {
  return (
    path
      .split('/')
      .filter(Boolean)
      .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
      .join('') || 'body'
  );
}

/**
 * The process's validator coerces types (a query's `?limit=5` must become a number), which in a
 * JSON body would turn `42` into `"42"` or `"kw"` into `["kw"]`. Before it runs, this check
 * rejects JSON bodies whose values have the wrong JSON type, and words an empty list the way the
 * spec does; every other rule is left to the schema validator.
 */
export async function strictJsonBody(request: FastifyRequest): Promise<void> {
  if (request.routeOptions.config.access === 'internal') return;
  const schema = request.routeOptions.schema?.body as TSchema | undefined;
  if (!schema || request.body === undefined) return;
  for (const error of Value.Errors(schema, request.body)) {
    const field = fieldName(error.path);
    const expected = TYPE_NAMES[error.type];
    if (expected) throw errors.validation(`${field} must be ${expected}`, [`${field} must be ${expected}`]);
    if (error.type === ValueErrorType.ArrayMinItems && Array.isArray(error.value) && error.value.length === 0) {
      const message = `${field} must contain at least one element`;
      throw errors.validation(message, [message]);
    }
  }
}
