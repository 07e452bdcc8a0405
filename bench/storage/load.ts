// The load generator: autocannon against 127.0.0.1, always bounded by a duration or a request count
// and a per-request timeout, so every run stops by itself.
import { isMainThread } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  token: string;
  connections: number;
  /** At most this many seconds (default 600), and at most `amount` requests when given. */
  seconds?: number;
  amount?: number;
  /** Requests per second over all connections (latency probes); latencies are then corrected for coordinated omission. */
  overallRate?: number;
  timeoutSeconds: number;
  /** A sequence of requests each connection loops over (autocannon `requests`: setupRequest/onResponse). */
  requests?: autocannon.Request[];
}

export interface LoadResult {
  /** Responses with a 2xx status. */
  ok: number;
  /** Responses with another status. */
  non2xx: number;
  /** Connection errors other than timeouts. */
  errors: number;
  timeouts: number;
  seconds: number;
  /** 2xx responses per second. */
  rps: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  statusCodes: Record<string, number>;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const opts = {
    url: options.url + options.path,
    method: options.method ?? 'GET',
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
    connections: options.connections,
    // `maxOverallRequests` (unlike autocannon's `amount`) still ends at the duration: nothing runs unbounded.
    duration: options.seconds ?? 600,
    ...(options.amount !== undefined ? { maxOverallRequests: options.amount } : {}),
    ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
    timeout: options.timeoutSeconds,
    ...(options.requests ? { requests: options.requests } : {}),
  };
  const raw = await autocannon(opts);
  // Off the main thread autocannon hands back its raw per-thread record; aggregate it the same way.
  const result = isMainThread ? raw : (autocannon as unknown as { aggregateResult(r: unknown, o: unknown): autocannon.Result }).aggregateResult([raw], opts);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stat?.count ?? 0);
  return {
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    seconds: result.duration,
    rps: result['2xx'] / result.duration,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMax: result.latency.max,
    statusCodes,
  };
}

export function describeFailures(r: LoadResult): string {
  const bad = Object.entries(r.statusCodes).filter(([code]) => !code.startsWith('2'));
  const parts = [...bad.map(([code, n]) => `${n}× ${code}`), ...(r.errors ? [`${r.errors} errors`] : []), ...(r.timeouts ? [`${r.timeouts} timeouts`] : [])];
  return parts.join(', ');
}
