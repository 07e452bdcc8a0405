import { percentEncode } from './hostile-values.ts';
import { fillPath, NATURAL_KEY_PARAMETERS, type ResourceKind } from './openapi-operations.ts';
import type { Caller, RequestPlan, Tenant } from './request-plans.ts';

/** What the fuzzer knows about the running service: tokens, and the ids each tenant owns (growing as it creates). */
/** A user's two tokens: the API's, and the dashboard's (required on `/private/*`). */
export interface UserTokens {
  api: string;
  dashboard: string;
}

export class FuzzWorld {
  readonly tokens: Record<Tenant | 'admin', UserTokens>;
  readonly organizations: Record<Tenant, string>;
  readonly #ids: Record<Tenant, Map<ResourceKind, string[]>> = { a: new Map(), b: new Map() };

  constructor(tokens: Record<Tenant | 'admin', UserTokens>, organizations: Record<Tenant, string>) {
    this.tokens = tokens;
    this.organizations = organizations;
    this.add('a', 'organization', organizations.a);
    this.add('b', 'organization', organizations.b);
  }

  add(tenant: Tenant, kind: ResourceKind, id: string): void {
    const pool = this.#ids[tenant].get(kind) ?? [];
    if (!pool.includes(id)) pool.push(id);
    this.#ids[tenant].set(kind, pool);
  }

  ids(tenant: Tenant, kind: ResourceKind): readonly string[] {
    return this.#ids[tenant].get(kind) ?? [];
  }
}

/** A request ready to send. */
export interface ConcreteRequest {
  /** `PATCH /projects/{id}` (the operation's template), or `PATCH (unknown path)`: what failures are grouped by. */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  caller: Caller;
  /** A tenant's token on a path naming the other tenant's ids: must never succeed. */
  crossTenant: boolean;
  /** A service-to-service route, called without the internal token: must never succeed. */
  internal: boolean;
}

export function materialize(plan: RequestPlan, world: FuzzWorld): ConcreteRequest {
  const values: Record<string, string> = {};
  const owners = new Set<Tenant>();
  for (const [name, value] of Object.entries(plan.pathValues)) {
    if ('text' in value) {
      values[name] = value.text;
      continue;
    }
    const pool = world.ids(value.tenant, value.kind);
    const id = pool.length > 0 ? (pool[value.pick % pool.length] as string) : `${value.kind}_missing`;
    values[name] = percentEncode(id);
    // Another tenant's id used as an ASIN or a keyword is just text there: it names nothing of theirs.
    if (pool.length > 0 && !NATURAL_KEY_PARAMETERS.includes(name)) owners.add(value.tenant);
  }
  const query = plan.query.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&');
  const search = query || plan.rawQuery ? `?${query}${plan.rawQuery}` : '';
  const path = (plan.unknownPath ?? fillPath(plan.operation.path, values)) + search;

  const headers: Record<string, string> = { ...plan.extraHeaders };
  if (plan.caller === 'malformed') headers.authorization = plan.malformedAuthorization;
  else if (plan.caller !== 'anonymous') headers.authorization = `Bearer ${world.tokens[plan.caller][plan.dashboardToken ? 'dashboard' : 'api']}`;
  const body = bodyBytes(plan);
  if (body !== undefined && plan.contentType !== undefined) headers['content-type'] = plan.contentType;

  const caller = plan.caller;
  const crossTenant = plan.unknownPath === undefined && (caller === 'a' || caller === 'b') && [...owners].some((owner) => owner !== caller);
  const route = `${plan.method} ${plan.unknownPath === undefined ? plan.operation.path : '(unknown path)'}`;
  const internal = plan.unknownPath === undefined && plan.operation.path.startsWith('/internal/');
  return { route, method: plan.method, path, headers, body, caller, crossTenant, internal };
}

function bodyBytes(plan: RequestPlan): Buffer | undefined {
  switch (plan.body.kind) {
    case 'none':
      return undefined;
    case 'raw':
      return Buffer.from(plan.body.text, 'utf8');
    case 'json':
      return Buffer.from(JSON.stringify(plan.body.value) ?? 'null', 'utf8');
    case 'large': {
      const filler = Math.max(0, plan.body.bytes - 12);
      return Buffer.from(`{"name":"${'x'.repeat(filler)}"}`, 'utf8');
    }
  }
}
