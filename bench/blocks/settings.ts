// Knobs of `pnpm bench blocks` (environment variables; defaults in parentheses).

const int = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

const list = (name: string, fallback: string): string[] =>
  (process.env[name] || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * What the simulator answers a random share of requests with: `captcha` (captchaRate), `blocks`
 * (blockRate: captcha, robot check, interstitial, challenge) or `stand-ins` (the pages that are no
 * block by their markers: challenge passed on as 200, WAF captcha, error page 200 and 500, sign-in,
 * promotion page; equal shares).
 */
export const BLOCK_MIXES = ['captcha', 'blocks', 'stand-ins'] as const;
export type BlockMix = (typeof BLOCK_MIXES)[number];

function mixes(): BlockMix[] {
  const wanted = list('BENCH_BLOCKS_MIXES', BLOCK_MIXES.join(','));
  const unknown = wanted.filter((mix) => !(BLOCK_MIXES as readonly string[]).includes(mix));
  if (unknown.length > 0) throw new Error(`BENCH_BLOCKS_MIXES: unknown mix ${unknown.join(', ')} (${BLOCK_MIXES.join(', ')})`);
  return wanted as BlockMix[];
}

function rates(): number[] {
  return list('BENCH_BLOCKS_RATES', '0.1,0.3,0.5').map((text) => {
    const rate = Number(text);
    if (!(rate >= 0 && rate < 1)) throw new Error(`BENCH_BLOCKS_RATES: ${text} is not a share in [0, 1)`);
    return rate;
  });
}

export const SETTINGS = {
  /** Interleaved rounds; every cell runs once per round (3, at least 3). */
  rounds: Math.max(3, int('BENCH_ROUNDS', 3)),
  /** Details targets per cell and round, each a distinct catalog ASIN (400). */
  targets: int('BENCH_BLOCKS_TARGETS', 400),
  /** Shares of requests answered with a block page (0.1, 0.3, 0.5). */
  rates: rates(),
  /** The mixes of BLOCK_MIXES to run (all three). */
  mixes: mixes(),
  /** Egress identities: 1 is the direct connection, more are that many loopback proxies (1, 3). */
  identities: list('BENCH_BLOCKS_IDENTITIES', '1,3').map((n) => Math.max(1, Number(n) || 1)),
  /** Targets crawled at the same time, as CRAWL_CONCURRENCY (8). */
  concurrency: int('BENCH_BLOCKS_CONCURRENCY', 8),
  /** Seed of the simulator's fault draws (1). */
  seed: int('BENCH_BLOCKS_SEED', 1),
  /**
   * Upstream rate per egress identity, requests per minute (600,000: 10,000 per second, the limit
   * is out of the way). A rate the run reaches shows what cool-downs do to capacity in the seconds per round.
   */
  requestsPerMinute: int('BENCH_BLOCKS_UPSTREAM_RATE', 600_000),
  /** Simulator page size: `small` keeps the run short, `full` serves 1–2 MB pages (small). */
  pageSize: process.env.BENCH_BLOCKS_PAGE_SIZE === 'full' ? ('full' as const) : ('small' as const),
  /** Backoff base and cap between a page's tries, ms: tiny, so the bench measures outcomes, not waits (1, 10). */
  backoffMs: int('BENCH_BLOCKS_BACKOFF_MS', 1),
  maxBackoffMs: int('BENCH_BLOCKS_MAX_BACKOFF_MS', 10),
};
