// Blocks benchmark: the share of details targets the crawler-worker's real stack gets right when
// the simulator answers a random share of requests with block pages, against the share its attempt
// budget allows (1 − r^MAX_FETCH_ATTEMPTS), with one egress identity (direct) and with several
// (forward proxies on loopback). Interleaved rounds, distinct ASINs per cell and round; every
// failed target is counted by its report's reason and message, next to the simulator's draws for
// its URL. Run: pnpm bench blocks   (knobs: bench/blocks/settings.ts; method: docs/benchmarks.md, "Blocks")
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createSimulator, type FaultConfig, type Simulator } from '@crawl/marketplace-simulator';
import { type ForwardProxy, startForwardProxy } from './blocks/forward-proxy.ts';
import { drawScript, failureKey, outcomeOf } from './blocks/outcomes.ts';
import { type BlockMix, SETTINGS } from './blocks/settings.ts';
import { DistinctAsins } from './blocks/targets.ts';
import { crawlDetails, MAX_FETCH_ATTEMPTS } from './blocks/worker-stack.ts';
import { interleaved, load } from './storage/measure.ts';

interface Cell {
  name: string;
  mix: BlockMix;
  rate: number;
  identities: number;
}

interface CellRun {
  targets: number;
  succeeded: number;
  wrongSuccesses: number;
  /** Targets whose first MAX_FETCH_ATTEMPTS draws include at least one plain page: what the budget allows for this sample. */
  allowed: number;
  /** Failure key → count, and the draw scripts of those targets. */
  failures: Map<string, { count: number; scripts: Map<string, number> }>;
  /** Sum of the reports' `requests`. */
  reportedRequests: number;
  /** Requests the simulator received. */
  simulatorRequests: number;
  faultsServed: Record<string, number>;
  requestsByIdentity: number[];
  /** Proxies resting at the end of the run. */
  cooledDown: number;
  proxyTraffic: { forwarded: number; tunnels: number };
  seconds: number;
}

const pct = (value: number, digits = 2): string => `${(value * 100).toFixed(digits)} %`;

function faultsOf(mix: BlockMix, rate: number): FaultConfig {
  if (mix === 'captcha') return { captchaRate: rate };
  if (mix === 'blocks') return { blockRate: rate };
  const share = rate / 6;
  return { challenge200Rate: share, wafCaptchaRate: share, errorPageRate: share, errorPage500Rate: share, signinRate: share, unrecognizedRate: share };
}

/** Wilson score interval (95 %) of a success share: how far the pooled figure may sit from the true rate. */
function wilson(successes: number, n: number): [number, number] {
  const z = 1.96;
  const p = successes / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [centre - half, centre + half];
}

async function runCell(cell: Cell, sim: Simulator, proxies: readonly ForwardProxy[], asins: DistinctAsins): Promise<CellRun> {
  const S = SETTINGS;
  const faults = faultsOf(cell.mix, cell.rate);
  sim.setFaults(faults);
  sim.resetStats();
  for (const proxy of proxies) proxy.resetTraffic();
  const targets = asins.take(S.targets);
  const started = performance.now();
  const used = cell.identities > 1 ? proxies.slice(0, cell.identities) : [];
  const { reports, requestsByIdentity, cooledDown } = await crawlDetails(targets, {
    baseUrl: sim.url,
    proxyUrls: used.map((p) => p.url),
    concurrency: S.concurrency,
    requestsPerMinute: S.requestsPerMinute,
    backoffMs: S.backoffMs,
    maxBackoffMs: S.maxBackoffMs,
  });
  const run: CellRun = {
    targets: targets.length,
    succeeded: 0,
    wrongSuccesses: 0,
    allowed: 0,
    failures: new Map(),
    reportedRequests: 0,
    simulatorRequests: sim.stats().byRoute.product,
    faultsServed: sim.stats().faults,
    requestsByIdentity: [...requestsByIdentity.values()].sort((a, b) => b - a),
    cooledDown,
    proxyTraffic: used.reduce((sum, p) => ({ forwarded: sum.forwarded + p.traffic().forwarded, tunnels: sum.tunnels + p.traffic().tunnels }), {
      forwarded: 0,
      tunnels: 0,
    }),
    seconds: (performance.now() - started) / 1000,
  };
  for (const [index, asin] of targets.entries()) {
    const script = drawScript(asin, faults, S.seed, MAX_FETCH_ATTEMPTS);
    if (script.includes('page')) run.allowed += 1;
    const report = reports.get(index);
    if (!report) throw new Error(`target ${index} (${asin}) was never reported`);
    run.reportedRequests += report.requests ?? 0;
    const outcome = outcomeOf(asin, report);
    if (outcome.kind === 'success') {
      run.succeeded += 1;
      continue;
    }
    if (outcome.kind === 'wrong success') run.wrongSuccesses += 1;
    const key = failureKey(outcome);
    const entry = run.failures.get(key) ?? { count: 0, scripts: new Map<string, number>() };
    entry.count += 1;
    const drawn = script.join('>');
    entry.scripts.set(drawn, (entry.scripts.get(drawn) ?? 0) + 1);
    run.failures.set(key, entry);
  }
  return run;
}

function cellsOf(): Cell[] {
  const cells: Cell[] = [];
  for (const mix of SETTINGS.mixes)
    for (const rate of SETTINGS.rates)
      for (const identities of SETTINGS.identities) cells.push({ name: `${mix} ${Math.round(rate * 100)} % ×${identities}`, mix, rate, identities });
  return cells;
}

function mergeFailures(runs: readonly CellRun[]): Map<string, { count: number; scripts: Map<string, number> }> {
  const merged = new Map<string, { count: number; scripts: Map<string, number> }>();
  for (const run of runs) {
    for (const [key, entry] of run.failures) {
      const into = merged.get(key) ?? { count: 0, scripts: new Map<string, number>() };
      into.count += entry.count;
      for (const [script, n] of entry.scripts) into.scripts.set(script, (into.scripts.get(script) ?? 0) + n);
      merged.set(key, into);
    }
  }
  return merged;
}

function printSummary(cells: readonly Cell[], runs: Record<string, CellRun[]>): void {
  console.log(
    '\n| mix | blocks | identities | targets | success | 95 % interval | per round | budget 1 − r⁴ | allowed by the draws | success ÷ budget | success ÷ allowed | wrong successes | requests/target |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const cell of cells) {
    const cellRuns = runs[cell.name] as CellRun[];
    const sum = (pick: (run: CellRun) => number) => cellRuns.reduce((total, run) => total + pick(run), 0);
    const targets = sum((r) => r.targets);
    const succeeded = sum((r) => r.succeeded);
    const allowed = sum((r) => r.allowed);
    const budget = 1 - cell.rate ** MAX_FETCH_ATTEMPTS;
    const [low, high] = wilson(succeeded, targets);
    const perRound = cellRuns.map((r) => (r.succeeded / r.targets) * 100).map((v) => v.toFixed(2));
    console.log(
      `| ${cell.mix} | ${Math.round(cell.rate * 100)} % | ${cell.identities === 1 ? '1 (direct)' : `${cell.identities} proxies`} | ${targets} | ${pct(succeeded / targets)} | ${pct(low)}–${pct(high)} | ${perRound.join(' / ')} | ${pct(budget)} | ${pct(allowed / targets)} | ${(succeeded / targets / budget).toFixed(4)} | ${(succeeded / allowed).toFixed(4)} | ${sum((r) => r.wrongSuccesses)} | ${(sum((r) => r.reportedRequests) / targets).toFixed(2)} |`,
    );
  }
}

function printDetails(cells: readonly Cell[], runs: Record<string, CellRun[]>): void {
  console.log('\nFailures by reason and message (pooled over rounds; the simulator\'s answers to the URL\'s tries in brackets, "page" = no fault):');
  for (const cell of cells) {
    const cellRuns = runs[cell.name] as CellRun[];
    const targets = cellRuns.reduce((t, r) => t + r.targets, 0);
    const failures = mergeFailures(cellRuns);
    const failed = [...failures.values()].reduce((t, e) => t + e.count, 0);
    const requests = cellRuns.reduce((t, r) => t + r.reportedRequests, 0);
    const simulated = cellRuns.reduce((t, r) => t + r.simulatorRequests, 0);
    const identities = cellRuns.map((r) => r.requestsByIdentity.join('/')).join(', ');
    const proxied = cellRuns
      .map((r) => `${r.proxyTraffic.tunnels} tunnels + ${r.proxyTraffic.forwarded} forwarded, ${r.cooledDown} cooled down at the end`)
      .join('; ');
    const served: Record<string, number> = {};
    for (const run of cellRuns) for (const [kind, n] of Object.entries(run.faultsServed)) served[kind] = (served[kind] ?? 0) + n;
    console.log(
      `\n${cell.name}: ${failed} of ${targets} not the product asked for; requests reported ${requests}, received by the simulator ${simulated}; faults served ${JSON.stringify(served)}`,
    );
    console.log(`  requests per identity per round: ${identities}${cell.identities > 1 ? `; proxies: ${proxied}` : ''}`);
    console.log(`  seconds per round: ${cellRuns.map((r) => r.seconds.toFixed(1)).join(', ')}`);
    for (const [key, entry] of [...failures.entries()].sort((a, b) => b[1].count - a[1].count)) {
      const scripts = [...entry.scripts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([script, n]) => `${script} ×${n}`)
        .join(', ');
      console.log(`  ${String(entry.count).padStart(4)} × ${key}  [${scripts}${entry.scripts.size > 4 ? ', …' : ''}]`);
    }
  }
}

export async function main(): Promise<void> {
  const S = SETTINGS;
  const cells = cellsOf();
  console.log(
    `Details targets against the simulator (${S.pageSize} pages, seed ${S.seed}) on 127.0.0.1: ${cells.length} cells × ${S.rounds} interleaved rounds × ${S.targets} distinct ASINs; ` +
      `${MAX_FETCH_ATTEMPTS} attempts per page, backoff ${S.backoffMs}–${S.maxBackoffMs} ms, concurrency ${S.concurrency}, ${S.requestsPerMinute} requests/min per identity, inline parsing; ` +
      `${availableParallelism()} cores; node ${process.version}; load average at start ${load()}`,
  );
  const sim = await createSimulator({ pageSize: S.pageSize, seed: S.seed });
  const proxyCount = Math.max(...S.identities);
  const proxies = proxyCount > 1 ? await Promise.all(Array.from({ length: proxyCount }, () => startForwardProxy([sim.host]))) : [];
  try {
    const asins = new DistinctAsins();
    const cases = Object.fromEntries(cells.map((cell) => [cell.name, () => runCell(cell, sim, proxies, asins)]));
    // The load average moves every 5 s, slower than a cell runs: it is taken per round.
    let roundStartLoad = load();
    const runs = await interleaved(S.rounds, cases, (round, values) => {
      const line = cells.map((cell) => `${cell.name} ${pct((values[cell.name] as CellRun).succeeded / S.targets, 1)}`).join(', ');
      console.log(`round ${round + 1} (load average ${roundStartLoad} → ${load()}): ${line}`);
      roundStartLoad = load();
    });
    printSummary(cells, runs);
    printDetails(cells, runs);
    for (const cell of cells.filter((c) => c.rate === 0.3 && c.identities === 1)) {
      const cellRuns = runs[cell.name] as CellRun[];
      const targets = cellRuns.reduce((t, r) => t + r.targets, 0);
      const share = cellRuns.reduce((t, r) => t + r.succeeded, 0) / targets;
      // Near the budget a sample falls under the goal by chance: what its draws allowed says whether the crawler lost any.
      const allowed = cellRuns.reduce((t, r) => t + r.allowed, 0) / targets;
      console.log(
        `\nGoal, ${cell.mix} at 30 % with one identity: ${pct(share)} of targets succeed (goal ≥ 99 %: ${share >= 0.99 ? 'met' : 'not met'}; the budget allows ${pct(1 - 0.3 ** MAX_FETCH_ATTEMPTS)}, this sample's draws ${pct(allowed)})`,
      );
    }
    console.log(`\nload average at end ${load()}`);
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    await sim.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
