// Sizes and durations of the storage benchmark, from the environment (defaults finish the
// embedded part in a few minutes on a 2-core machine).
import { CATALOG_LIMITS } from '@crawl/contracts';

function int(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return value;
}

/** `K=V,K=V` extra settings for the service process (e.g. `RECONCILE_INTERVAL_MS=0`). */
function extraEnv(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_SERVER_ENV: "${pair}" is not K=V`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

const jobs = int('BENCH_JOBS', 10_000);

export const SETTINGS = {
  /** Which variants run: `embedded`, `mongodb` (the latter only with a MongoDB and a Redis URL). */
  variants: (process.env.BENCH_VARIANTS ?? 'embedded,mongodb')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
  /** Jobs in the large project (embedded). */
  jobs,
  /** Jobs in the small project / the baseline organization. */
  smallJobs: int('BENCH_SMALL_JOBS', 10),
  /** Rows of the large job (reported as success items through catalog's worker route). */
  rows: int('BENCH_ROWS', 100_000),
  /** Rows of the small job. */
  smallRows: int('BENCH_SMALL_ROWS', 24),
  /** Items per target report (the route accepts at most 5000). */
  itemsPerReport: Math.min(int('BENCH_ITEMS_PER_REPORT', 5000), 5000),
  /** Interleaved rounds per figure; medians are reported. */
  rounds: int('BENCH_ROUNDS', 3),
  /** Concurrent connections creating jobs (and filling). */
  createConcurrency: int('BENCH_CONCURRENCY', 20),
  /** Seconds per creates/s round (embedded). */
  createSeconds: int('BENCH_CREATE_SECONDS', 10),
  /** Connections and seconds per round of the list and results-page figures. */
  readConnections: int('BENCH_READ_CONNECTIONS', 10),
  readSeconds: int('BENCH_READ_SECONDS', 5),
  /** Page size for results pages (equal for both jobs, so both answer the same number of rows). */
  pageSize: int('BENCH_PAGE_SIZE', 20),
  /** Page size the background pagers use while GET /jobs/:id latency is probed: by default the API's (a client that sends no pageSize). */
  pagerPageSize: int('BENCH_PAGER_PAGE_SIZE', CATALOG_LIMITS.resultsDefaultPageSize),
  pagers: int('BENCH_PAGERS', 10),
  /**
   * Pages per second each pager client asks for, evenly paced (pager-worker.ts); 0 = as fast as it
   * is answered (closed loop). Figure 4's goal is on this rate; a closed-loop run is reported beside it.
   */
  pagerRate: int('BENCH_PAGER_RATE', 20, 0),
  /** Seconds per latency round, and the probe's request rate (requests/s, 2 connections). */
  latencySeconds: int('BENCH_LATENCY_SECONDS', 10),
  probeRate: int('BENCH_PROBE_RATE', 100),
  /** Per-request timeout of the load generator, seconds. */
  timeoutSeconds: int('BENCH_TIMEOUT_SECONDS', 10),
  /** MongoDB (FerretDB) + Redis variant. */
  mongoUrl: process.env.BENCH_MONGO_URL ?? process.env.TEST_MONGO_URL,
  redisUrl: process.env.REDIS_URL ?? process.env.TEST_REDIS_URL,
  mongoJobs: int('BENCH_MONGO_JOBS', jobs),
  mongoCreateSeconds: int('BENCH_MONGO_CREATE_SECONDS', 30),
  /** Seconds per round of the driver create-mix baseline (MongoDB variant, raw driver on a scratch database). */
  driverSeconds: int('BENCH_DRIVER_SECONDS', 10),
  /** Filling a project with jobs stops after this many seconds (the figures then name the N reached). */
  fillSeconds: int('BENCH_FILL_SECONDS', 900),
  /** Upstream rate of the crawler-worker inside the all-in-one (it crawls the in-process simulator). */
  upstreamRate: int('BENCH_UPSTREAM_RATE', 60),
  serverEnv: extraEnv(process.env.BENCH_SERVER_ENV),
  /** Checkout whose `apps/server/src/bin.ts` is started (default: this one), e.g. a snapshot of another commit. */
  serviceRoot: process.env.BENCH_SERVICE_ROOT || undefined,
  /** Seconds to wait for the service to answer /ready. */
  startTimeoutSeconds: int('BENCH_START_TIMEOUT_SECONDS', 60),
};

export type Settings = typeof SETTINGS;
