import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.ts';

/**
 * Values a property of that name should take to get past validation and reach the service (a
 * random string is never a webhook URL or a cron line). Keys are property names in request bodies
 * and query strings.
 */
export type PropertyHints = Record<string, fc.Arbitrary<unknown>>;

/** Arrays and strings stay short: size is the oversized-body cases' job, and every target is a crawl. */
const MAX_ITEMS = 3;
const MAX_STRING = 40;

/** Values that satisfy `schema` (enum, const, anyOf, type lists, bounds, patterns, email), named properties from `hints`. */
export function validValue(schema: JsonSchema, hints: PropertyHints = {}): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, hints)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => validValue({ ...schema, type }, hints)));
  switch (schema.type) {
    case 'object':
      return objectValue(schema, hints);
    case 'array':
      return arrayValue(schema, hints);
    case 'string':
      return stringValue(schema);
    case 'integer':
      return fc.integer({ min: bound(schema.minimum, -1_000_000), max: bound(schema.maximum, 1_000_000) });
    case 'number':
      return fc.double({ min: bound(schema.minimum, -1e6), max: bound(schema.maximum, 1e6), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function objectValue(schema: JsonSchema, hints: PropertyHints): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, hints[name] ?? validValue(property, hints)]));
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  return fc.record(model, { requiredKeys: required }).filter((value) => Object.keys(value).length >= minProperties);
}

function arrayValue(schema: JsonSchema, hints: PropertyHints): fc.Arbitrary<unknown> {
  const items = validValue((schema.items ?? {}) as JsonSchema, hints);
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : MAX_ITEMS, MAX_ITEMS));
  return schema.uniqueItems === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
    : fc.array(items, { minLength, maxLength });
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = Math.max(minLength, typeof schema.maxLength === 'number' ? schema.maxLength : MAX_STRING);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, MAX_STRING)) });
}
