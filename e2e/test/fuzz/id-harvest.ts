import type { ConcreteRequest, FuzzWorld } from './fuzz-world.ts';
import type { Exchange } from './http-exchange.ts';
import type { ResourceKind } from './openapi-operations.ts';

const KIND_BY_PREFIX: Record<string, ResourceKind> = { prj_: 'project', job_: 'job', sch_: 'schedule', whk_: 'webhook', whd_: 'delivery' };

/**
 * Adds the ids a tenant's successful request returned (what it created or listed) to that tenant's
 * pool, so later requests, and the cross-tenant rule, cover them too.
 */
export function harvestIds(request: ConcreteRequest, result: Exchange, world: FuzzWorld): void {
  if (result.outcome !== 'response' || result.status >= 300 || (request.caller !== 'a' && request.caller !== 'b')) return;
  if (!String(result.headers['content-type'] ?? '').includes('application/json')) return;
  let data: unknown;
  try {
    data = (JSON.parse(result.body.toString('utf8')) as { data?: unknown }).data;
  } catch {
    return;
  }
  for (const item of Array.isArray(data) ? data : [data]) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    const kind = KIND_BY_PREFIX[id.slice(0, 4)];
    if (kind) world.add(request.caller, kind, id);
  }
}
