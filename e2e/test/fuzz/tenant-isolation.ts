import fc from 'fast-check';
import { isErrorEnvelope } from './fuzz-checks.ts';
import type { FuzzWorld } from './fuzz-world.ts';
import { fillPath, type Operation, resourceKindOf } from './openapi-operations.ts';
import type { Tenant } from './request-plans.ts';
import { type PropertyHints, validValue } from './schema-values.ts';

/** Values that pass every body's validation, so that only ownership can refuse the request. */
export const validHints = (webhookUrl: string): PropertyHints => ({
  url: fc.constant(webhookUrl),
  cron: fc.constant('0 6 * * *'),
  targets: fc.constant(['usb cable']),
  lang: fc.constant('en-US'),
});

export interface IsolationProbe {
  operation: string;
  owner: Tenant;
  status: number;
  enveloped: boolean;
}

/**
 * Every operation with an id in its path (the admin ones aside: they name organizations on
 * purpose), called by one tenant on the other's ids with a body that validates: each answer
 * must be a 404 in the error envelope. Routes with two ids are also called with the caller's own
 * first id and the other tenant's second (a delivery of someone else's webhook on one's own).
 */
export async function probeTenantIsolation(base: string, operations: readonly Operation[], world: FuzzWorld, webhookUrl: string): Promise<IsolationProbe[]> {
  const hints = validHints(webhookUrl);
  const probes: IsolationProbe[] = [];
  for (const operation of operations) {
    if (operation.pathParameters.length === 0 || operation.path.startsWith('/admin')) continue;
    for (const [owner, intruder] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const layouts = operation.pathParameters.map((_, mixedFrom) => operation.pathParameters.map((__, index) => (index >= mixedFrom ? owner : intruder)));
      for (const tenants of layouts) {
        const values = Object.fromEntries(
          operation.pathParameters.map((parameter, index) => {
            const kind = resourceKindOf(operation.path, parameter.name);
            const id = kind ? world.ids(tenants[index] as Tenant, kind)[0] : undefined;
            if (!id) throw new Error(`no ${kind ?? parameter.name} id for ${operation.method} ${operation.path}`);
            return [parameter.name, encodeURIComponent(id)];
          }),
        );
        const body = operation.body ? fc.sample(validValue(operation.body, hints), { seed: 1, numRuns: 1 })[0] : undefined;
        const res = await fetch(base + fillPath(operation.path, values), {
          method: operation.method,
          headers: {
            authorization: `Bearer ${world.tokens[intruder][operation.path.startsWith('/private') ? 'dashboard' : 'api']}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        probes.push({
          operation: `${operation.method} ${operation.path} [${tenants.join(',')}]`,
          owner,
          status: res.status,
          enveloped: isErrorEnvelope(parsed),
        });
      }
    }
  }
  return probes;
}
