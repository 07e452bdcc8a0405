import { describe, expect, it } from 'vitest';
import { PUBLIC_OPERATIONS, PUBLIC_ROUTES } from './public-routes.ts';

describe('the public route tables', () => {
  it('name every route uniquely (the names are the OpenAPI operationIds)', () => {
    const ids = PUBLIC_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['health', 'createJob', 'exportJob', 'referralLink']));
  });

  it('declare each method and path once', () => {
    const keys = PUBLIC_ROUTES.map((route) => `${route.method} ${route.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('describe the success answer of every raw route', () => {
    for (const { operationId, spec } of PUBLIC_OPERATIONS.filter((operation) => operation.spec.raw)) {
      const documented = spec.rawResponse !== undefined || Object.keys(spec.schema.response).some((status) => status.startsWith('2'));
      expect(documented, operationId).toBe(true);
    }
  });
});
