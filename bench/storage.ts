// Storage benchmark: does the all-in-one service stay fast and small as a project fills up with
// jobs and a job with result rows? Every figure is a ratio against a baseline measured in the same
// run (interleaved rounds, medians of the per-round ratios), against the all-in-one process
// (`bin.ts --target=all`) started as a child process on 127.0.0.1 with a fresh DATA_DIR. A
// MongoDB (FerretDB) + Redis variant runs when both URLs are set.
// Run: pnpm bench storage   (env knobs: bench/storage/settings.ts; method: docs/benchmarks.md, "Storage")
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { embeddedVariant } from './storage/embedded.ts';
import { load as loadAverage } from './storage/measure.ts';
import { mongoVariant } from './storage/mongodb.ts';
import { SETTINGS } from './storage/settings.ts';
import { fmt, type Figure } from './storage/shared.ts';

export type { Figure } from './storage/shared.ts';

export interface StorageBenchResult {
  settings: typeof SETTINGS;
  figures: Figure[];
  /** Variants not run, and why. */
  skipped: string[];
  /** Variants that stopped with an error (their figures so far are kept). */
  failed: { variant: Figure['variant']; error: string }[];
  loadAverage: { start: number[]; end: number[] };
}

export async function runStorageBench(): Promise<StorageBenchResult> {
  const start = loadavg();
  const figures: Figure[] = [];
  const skipped: string[] = [];
  const failed: StorageBenchResult['failed'] = [];
  const attempt = async (variant: Figure['variant'], run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      console.error(`${variant} variant failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      failed.push({ variant, error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error) });
    }
  };
  if (SETTINGS.variants.includes('embedded')) await attempt('embedded', () => embeddedVariant(figures));
  else skipped.push('embedded: not in BENCH_VARIANTS');
  if (!SETTINGS.variants.includes('mongodb')) skipped.push('mongodb: not in BENCH_VARIANTS');
  else if (!SETTINGS.mongoUrl || !SETTINGS.redisUrl)
    skipped.push('mongodb: set BENCH_MONGO_URL (or TEST_MONGO_URL) and REDIS_URL (or TEST_REDIS_URL) to include it');
  else {
    const { mongoUrl, redisUrl } = SETTINGS;
    await attempt('mongodb', () => mongoVariant(figures, mongoUrl, redisUrl));
  }
  return { settings: SETTINGS, figures, skipped, failed, loadAverage: { start, end: loadavg() } };
}

export async function main(): Promise<void> {
  const S = SETTINGS;
  console.log(
    `All-in-one process (${S.serviceRoot ? `${S.serviceRoot}/` : ''}apps/server/src/bin.ts --target=all, MARKETPLACE=simulator, upstream ${S.upstreamRate}/min) on 127.0.0.1; ` +
      `${S.rounds} interleaved rounds (creates ${S.createSeconds} s embedded / ${S.mongoCreateSeconds} s MongoDB, driver create-mix ${S.driverSeconds} s, reads ${S.readSeconds} s, ` +
      `latency ${S.latencySeconds} s with pagers at ${S.pagerRate > 0 ? `${S.pagerRate} pages/s each and closed loop` : 'closed loop'}); load average at start ${loadAverage()}\n`,
  );
  const result = await runStorageBench();
  console.log('');
  for (const reason of result.skipped) console.log(`(${reason})`);
  for (const f of result.failed) console.log(`(${f.variant} stopped with an error: ${f.error})`);
  const avg = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`\nload average: ${avg(result.loadAverage.start)} at start, ${avg(result.loadAverage.end)} at the end\n`);
  console.log('| variant | figure | value | goal | pass | detail |');
  console.log('|---|---|---|---|---|---|');
  for (const f of result.figures) {
    const value = f.unit === 'ratio' ? (Number.isFinite(f.value) ? f.value.toFixed(2) : 'n/a') : `${fmt(f.value)} ${f.unit}`;
    const pass = f.informational ? '—' : f.pass ? 'pass' : '**fail**';
    console.log(`| ${f.variant} | ${f.name} | ${value} | ${f.goal} | ${pass} | ${f.detail} |`);
  }
  if (result.failed.length > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
