import { describe, expect, it } from 'vitest';
import { describeSchemaErrors, type SchemaError } from './validation-messages.ts';

const error = (instancePath: string, keyword: string, params: Record<string, unknown>, message = 'raw validator wording'): SchemaError => ({
  instancePath,
  keyword,
  params,
  message,
});

describe('describeSchemaErrors', () => {
  it('folds a union of constants into one sentence naming every allowed value', () => {
    const errors = [
      error('/type', 'const', { allowedValue: 'search' }),
      error('/type', 'const', { allowedValue: 'details' }),
      error('/type', 'anyOf', {}, 'must match a schema in anyOf'),
    ];
    expect(describeSchemaErrors(errors, 'body')).toEqual(['type must be one of "search", "details"']);
  });

  it('folds a union of types (a nullable field) into one sentence', () => {
    const errors = [error('/at', 'type', { type: 'string' }), error('/at', 'type', { type: 'null' }), error('/at', 'anyOf', {})];
    expect(describeSchemaErrors(errors, 'body')).toEqual(['at must be a string or null']);
  });

  it('says why a union of objects failed with its first branch, not the validator wording', () => {
    const errors = [error('/target', 'required', { missingProperty: 'url' }), error('/target', 'type', { type: 'string' }), error('/target', 'anyOf', {})];
    expect(describeSchemaErrors(errors, 'body')).toEqual(['target.url is required']);
  });

  it.each([
    [error('', 'minProperties', { limit: 1 }), 'body', 'body must have at least one property'],
    [error('', 'additionalProperties', { additionalProperty: 'foo' }), 'querystring', 'foo is not an allowed property'],
    [error('/limit', 'minimum', { limit: 1 }), 'querystring', 'limit must be at least 1'],
    [error('/n', 'type', { type: 'integer' }), 'body', 'n must be an integer'],
    [error('/tags', 'uniqueItems', { i: 1, j: 0 }), 'body', 'tags must not contain duplicates'],
    [error('/x', 'if', { failingKeyword: 'then' }), 'body', 'x has an invalid value'],
  ])('writes %j for people', (schemaError, context, sentence) => {
    expect(describeSchemaErrors([schemaError], context)).toEqual([sentence]);
  });
});
