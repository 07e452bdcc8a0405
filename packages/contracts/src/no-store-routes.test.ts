import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from './public-routes.ts';

/** A property name that means the answer hands out a credential or a secret (`accessToken`, `secret`; not `secretExpiresAt`). */
const SECRET_NAME = /(token|secret|password|apikey)$/i;

function secretProperties(schema: TSchema | undefined, path = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const found: string[] = [];
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  for (const [name, child] of Object.entries(properties)) {
    if (SECRET_NAME.test(name)) found.push(`${path}${name}`);
    found.push(...secretProperties(child, `${path}${name}.`));
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) {
    const nested = (schema as Record<string, unknown>)[key];
    for (const child of Array.isArray(nested) ? nested : nested ? [nested] : []) found.push(...secretProperties(child as TSchema, path));
  }
  return found;
}

describe('routes that hand out secrets', () => {
  const successes = PUBLIC_ROUTES.map((route) => ({
    route,
    secrets: Object.entries(route.schema.response)
      .filter(([status]) => Number(status) < 300)
      .flatMap(([, schema]) => secretProperties(schema)),
  }));

  it('are all declared noStore, so their answers are never cached', () => {
    const undeclared = successes.filter(({ route, secrets }) => secrets.length > 0 && !route.noStore).map(({ route }) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });

  it('include the credential and webhook secret routes', () => {
    const declared = PUBLIC_ROUTES.filter((route) => route.noStore).map((route) => `${route.method} ${route.url}`);
    expect(declared).toEqual(
      expect.arrayContaining([
        'POST /auth/register',
        'POST /auth/login',
        'POST /auth/login-handoff',
        'POST /auth/verify-handoff',
        'POST /projects/:projectId/webhooks',
        'POST /webhooks/:id/rotate-secret',
      ]),
    );
    // The walk itself finds them: a schema change that hides a secret from it fails here.
    expect(successes.filter(({ secrets }) => secrets.length > 0).length).toBeGreaterThanOrEqual(6);
  });
});
