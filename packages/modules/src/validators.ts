import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS whose default export is the function itself.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function ajvWith(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false, addUsedSchema: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/**
 * Query strings, path parameters and headers arrive as text, so their numbers and booleans are
 * coerced. JSON bodies already carry types: `{"name": 42}` must fail, not become `"42"`.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = ajvWith(false);
  const text = ajvWith('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : text).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}
