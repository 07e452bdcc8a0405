import fc from 'fast-check';
import { isErrorEnvelope } from './fuzz-checks.ts';
import type { FuzzWorld } from './fuzz-world.ts';
import { fillPath, NATURAL_KEY_PARAMETERS, type Operation, resourceKindOf } from './openapi-operations.ts';
import type { Tenant } from './request-plans.ts';
import { type PropertyHints, validValue } from './schema-values.ts';

/** Values that pass every body's validation, so that only ownership can refuse the request. */
export const validHints = (webhookUrl: string): PropertyHints => ({
  url: fc.constant(webhookUrl),
  cron: fc.constant('0 6 * * *'),
  targets: fc.constant(['usb cable']),
  lang: fc.constant('en-US'),
});

/** Bodies whose fields depend on each other (a rule's operation on its field, one schedule of two): written out, as no schema sample passes. */
const MONITOR_BODY = {
  name: 'probe',
  type: 'search',
  targets: ['desk lamp'],
  domain: 'amazon.com',
  every: '1d',
  watch: ['organicRank'],
  rules: [{ field: 'organicRank', op: 'entersTop', value: 3 }],
};
const VALID_BODIES: Record<string, unknown> = {
  'POST /projects/{projectId}/monitors': MONITOR_BODY,
  'PATCH /monitors/{id}': { name: 'renamed by the probe' },
};

/** Routes that take a file, not JSON: a valid upload, so that only ownership can refuse it. */
const UPLOADS: Record<string, { query: string; text: string }> = {
  'POST /projects/{projectId}/target-lists': { query: '?type=search&name=probe', text: 'usb cable\n' },
};

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
    // An ASIN or a keyword is no one's id: the security suite checks that another organization's
    // is answered exactly as one nobody observed (security/tenant-isolation.test.ts).
    if (operation.pathParameters.some((parameter) => NATURAL_KEY_PARAMETERS.includes(parameter.name))) continue;
    // Destinations exist only where an S3 server does (always in CI, where the fixtures insist on one).
    if (
      operation.pathParameters.some(
        (parameter) => resourceKindOf(operation.path, parameter.name) === 'destination' && world.ids('a', 'destination').length === 0,
      )
    )
      continue;
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
        const upload = UPLOADS[`${operation.method} ${operation.path}`];
        const body = operation.body
          ? (VALID_BODIES[`${operation.method} ${operation.path}`] ?? fc.sample(validValue(operation.body, hints), { seed: 1, numRuns: 1 })[0])
          : undefined;
        const res = await fetch(base + fillPath(operation.path, values) + (upload?.query ?? ''), {
          method: operation.method,
          headers: {
            authorization: `Bearer ${world.tokens[intruder][operation.path.startsWith('/private') ? 'dashboard' : 'api']}`,
            ...(upload ? { 'content-type': 'text/plain' } : body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(upload ? { body: upload.text } : body === undefined ? {} : { body: JSON.stringify(body) }),
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
