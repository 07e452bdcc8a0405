// Knobs of `pnpm bench pipeline` (environment variables; defaults in parentheses).
import { availableParallelism } from 'node:os';

const int = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const SETTINGS = {
  /** Interleaved rounds; each figure is the median of the per-round ratios (3, at least 3). */
  rounds: Math.max(3, int('BENCH_ROUNDS', 3)),
  /** Pages each crawler fetches and parses per round, after its warm-up (320: at ≈300 pages/s, 160 took half a second). */
  pages: int('BENCH_PIPELINE_PAGES', 320),
  /**
   * Pages fetched and parsed before the clock starts (threads started, code warm) (96: each parse
   * thread sees 48, about as many as the ceiling's warm loop runs before its timed passes; with 24,
   * 12 per thread, the threads still spent ≈1 ms per page more).
   */
  warmup: int('BENCH_PIPELINE_WARMUP', 96),
  /** Fetch concurrency of both crawlers (8). */
  concurrency: int('BENCH_PIPELINE_CONCURRENCY', 8),
  /** Parse threads of our pipeline (PARSE_THREADS; default one per core). */
  parseThreads: int('BENCH_PARSE_THREADS', availableParallelism()),
  /** Distinct product pages served (B0SIM00001…), layouts as the simulator picks them per ASIN (24). */
  distinctPages: Math.min(50, int('BENCH_PIPELINE_DISTINCT', 24)),
  /** Extraction timings per page per round for the ceiling (3 passes over the distinct pages). */
  extractionPasses: int('BENCH_EXTRACTION_PASSES', 3),
  /** Hard stop of one crawler run, in seconds (120). */
  runTimeoutSeconds: int('BENCH_PIPELINE_TIMEOUT_S', 120),
  cores: availableParallelism(),
};

export const asinOf = (i: number): string => `B0SIM${String((i % SETTINGS.distinctPages) + 1).padStart(5, '0')}`;
