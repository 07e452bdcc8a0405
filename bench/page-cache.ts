// Page cache benchmark: a 100-target details job end to end through the whole service in this
// process (gateway, auth, catalog, billing and crawler-worker of the all-in-one, on the embedded
// stores, listening on loopback, driven over HTTP), crawling the marketplace simulator at full pages
// with the upstream rate lifted. The cache is filled once by a job with `maxAge`; then, interleaved
// with the order alternating, (a) the same job with `maxAge` answered wholly from the cache and
// (b) the same job without `maxAge`, fetched from the simulator. End to end = from the create
// request to the job read back completed and its results page read. Each cached run is checked:
// no simulator request, every target with `cachedAt`.
// speed-up = fetched ms ÷ cached ms, the median of the rounds' ratios (goal ≥ 10); cached end to
// end is the median of the cached runs (goal ≤ 1 s).
// Run: pnpm bench page-cache   (knobs: BENCH_CACHE_TARGETS, BENCH_CACHE_ROUNDS, BENCH_CACHE_PAGES=small|full, BENCH_CACHE_CONCURRENCY)
import type { Job, JobResults } from '@crawl/contracts';
import { CATEGORIES, createSimulator, makeCatalogAsin, type Simulator } from '@crawl/marketplace-simulator';
import { startListeningAllInOne } from '@crawl/server/testing';
import { interleaved, load, median, ratioOfRounds } from './storage/measure.ts';

const TARGETS = Number(process.env.BENCH_CACHE_TARGETS ?? 100);
const ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 3);
const PAGES = process.env.BENCH_CACHE_PAGES === 'small' ? 'small' : 'full';
/** The worker's targets in flight, the same for both cases (the all-in-one's test default is 4). */
const CONCURRENCY = process.env.BENCH_CACHE_CONCURRENCY ?? '4';
const POLL_MS = 10;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

interface Client {
  url: string;
  token: string;
  projectId: string;
}

async function api<T>(client: Client, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${client.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${client.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Creates the job, polls it to its end, reads its results: the job, its records and the wall time. */
async function runJob(client: Client, asins: readonly string[], config: Record<string, unknown>): Promise<{ job: Job; records: number; ms: number }> {
  const started = performance.now();
  const created = await api<Job>(client, 'POST', `/projects/${client.projectId}/jobs`, { type: 'details', targets: asins, config });
  let job = created;
  while (!TERMINAL.has(job.status)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await api<Job>(client, 'GET', `/jobs/${created.id}`);
  }
  const results = await api<JobResults>(client, 'GET', `/jobs/${created.id}/results?pageSize=${Math.max(asins.length, 10)}`);
  const ms = performance.now() - started;
  if (job.status !== 'completed')
    throw new Error(`job ${job.id} ended ${job.status}: ${JSON.stringify(job.targets.filter((t) => t.status !== 'success')).slice(0, 500)}`);
  return { job, records: results.items.length, ms };
}

const pageRequests = (sim: Simulator): number => sim.stats().total - (sim.stats().byRoute.health ?? 0);

export async function main(): Promise<void> {
  const sim = await createSimulator({ pageSize: PAGES, seed: 28 });
  const service = await startListeningAllInOne({
    MARKETPLACE: 'live',
    MARKETPLACE_BASE_URL: sim.url,
    MARKETPLACE_EXTRA_HOSTS: sim.host,
    UPSTREAM_RATE_PER_MINUTE: '60000',
    UPSTREAM_BURST: '200',
    SIGNUP_BONUS_CREDITS: '1000000',
    LIMIT_TARGETS_PER_MONTH: '1000000',
    CRAWL_CONCURRENCY: CONCURRENCY,
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
  });
  try {
    const user = await service.service.registerUser();
    const client: Client = { url: service.url, token: user.token, projectId: '' };
    client.projectId = (await api<{ id: string }>(client, 'POST', '/projects', { name: 'Page cache bench' })).id;
    const asins = Array.from({ length: TARGETS }, (_, n) => makeCatalogAsin(n % CATEGORIES.length, `bench-cache-${n}`));
    console.log(
      `${TARGETS} details targets, ${PAGES} pages, upstream rate 60000/min (its maximum), concurrency ${CONCURRENCY}, ${ROUNDS} rounds, load ${load()}`,
    );

    sim.resetStats();
    const fill = await runJob(client, asins, { maxAge: '1h' });
    console.log(`  · cache filled: ${(fill.ms / 1000).toFixed(2)} s, ${pageRequests(sim)} simulator requests, ${fill.records} records`);

    const runs = await interleaved(
      ROUNDS,
      {
        cached: async () => {
          sim.resetStats();
          const run = await runJob(client, asins, { maxAge: '1h' });
          const requests = pageRequests(sim);
          const hits = run.job.targets.filter((t) => t.cachedAt !== undefined).length;
          if (requests !== 0 || hits !== TARGETS) throw new Error(`cached run: ${requests} simulator requests, ${hits}/${TARGETS} targets from the cache`);
          return run.ms;
        },
        fetched: async () => {
          sim.resetStats();
          const run = await runJob(client, asins, {});
          if (pageRequests(sim) < TARGETS) throw new Error(`fetched run: only ${pageRequests(sim)} simulator requests`);
          return run.ms;
        },
      },
      (round, values) =>
        console.log(`  · round ${round + 1}: cached ${(values.cached / 1000).toFixed(3)} s, fetched ${(values.fetched / 1000).toFixed(3)} s, load ${load()}`),
    );

    const cachedSeconds = median(runs.cached) / 1000;
    console.log(`\ncache end to end s (goal ≤ 1): ${cachedSeconds.toFixed(3)}`);
    console.log(`fetched end to end s: ${(median(runs.fetched) / 1000).toFixed(3)}`);
    console.log(`speed-up (goal ≥ 10): ${ratioOfRounds(runs.fetched, runs.cached).toFixed(1)}×`);
    console.log(`load average after: ${load()}`);
  } finally {
    await service.close();
    await sim.close();
  }
}
