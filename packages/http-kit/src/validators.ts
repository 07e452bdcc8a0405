import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS whose default export is the function itself.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function ajvWith(coerceTypes: Options['coerceTypes'], removeAdditional: Options['removeAdditional'] = false): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false, addUsedSchema: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/**
 * Query strings, path parameters and headers arrive as text, so their numbers and booleans are
 * coerced. JSON bodies already carry types: `{"name": 42}` must fail, not become `"42"`.
 *
 * A query parameter a route does not know is dropped, not refused: cache-busters (`?_=123`) and
 * tracking parameters are everyday on GETs, and an ignored parameter changes nothing stored. An
 * unknown body property still fails (docs/api.md, Conventions).
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = ajvWith(false);
  const queries = ajvWith('array', true);
  const text = ajvWith('array');
  const pick = (httpPart: string | undefined): Ajv => (httpPart === 'body' ? bodies : httpPart === 'querystring' ? queries : text);
  return ({ schema, httpPart }) => pick(httpPart).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}
