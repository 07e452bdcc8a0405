/**
 * Runs every benchmark and prints its figures: `pnpm bench` (or `pnpm bench parser`).
 * Figures go in docs/benchmarks.md as ratios against a baseline measured in the same run.
 */
const BENCHES: Record<string, () => Promise<{ main(): Promise<void> }>> = {
  parser: () => import('./parser.ts'),
  fairness: () => import('./fairness.ts'),
  storage: () => import('./storage.ts'),
  // History as change points: storage for a simulated year, one product's history read, the write's cost.
  history: () => import('./history.ts'),
  // Crawl pipeline (fetch + parse pool) vs the parse-bound ceiling and Crawlee's CheerioCrawler.
  pipeline: () => import('./pipeline.ts'),
  // Details targets that succeed when the simulator answers a share of requests with block pages.
  blocks: () => import('./blocks.ts'),
  // The split-on-MongoDB row needs BENCH_MONGO_URL (or TEST_MONGO_URL) and REDIS_URL (or TEST_REDIS_URL).
  'read-path': () => import('./read-path.ts'),
  // Needs a MongoDB-wire server (BENCH_MONGO_URL or TEST_MONGO_URL); says so and skips without one.
  'ferretdb-locks': () => import('./ferretdb-locks.ts'),
  // A 100,000-line target list parsed, checked, de-duplicated and stored, against splitting the same bytes.
  'target-lists': () => import('./target-lists.ts'),
  // A 100,000-row job written to the S3 server as a destination writes it, against a bare upload of the same NDJSON (TEST_S3_URL).
  delivery: () => import('./delivery.ts'),
  // A 100-target details job answered wholly from the shared page cache, against the same job fetched from the simulator.
  'page-cache': () => import('./page-cache.ts'),
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHES)) {
  const load = BENCHES[name];
  if (!load) {
    console.error(`unknown benchmark "${name}"; available: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n## ${name}\n`);
  await (await load()).main();
}
