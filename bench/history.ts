// History benchmark: what keeping observations as change points costs. (a) storage: products
// checked hourly for a simulated year, 5 % of checks changing a value: rows and bytes, and bytes
// per unchanged check; (b) one product's year of history read through the History service ÷ a
// bare indexed range read of the same rows on the same store (p50s); (c) storing a target's
// results with its observations ÷ storing them without; (d) monitors' rules evaluated on an hour's
// reports of 10,000 monitored targets, as a share of one core. Interleaved rounds, medians of per-round
// ratios, the load average printed. Embedded store (a SQLite file in a temp dir) always; MongoDB
// too when BENCH_MONGO_URL or TEST_MONGO_URL is set.
// Run: pnpm bench history   (knobs: BENCH_HISTORY_ASINS, BENCH_HISTORY_HOURS, BENCH_HISTORY_ROUNDS, BENCH_HISTORY_REPORTS)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProductRecord, SearchRecord } from '@crawl/contracts';
import { systemClock } from '../packages/clock/src/index.ts';
import type { Document, DocumentStore } from '../packages/storage/src/index.ts';
import { MongoDocumentStore } from '../packages/storage-mongo/src/index.ts';
import { EmbeddedDocumentStore } from '../packages/storage-sqlite/src/index.ts';
import {
  HistoryRecorder,
  HistoryService,
  OBSERVATIONS_COLLECTION,
  ObservationRepository,
  subjectIdOf,
} from '../services/catalog/src/features/history/index.ts';
import { ResultRepository, ResultStore } from '../services/catalog/src/features/results/index.ts';
import { domainCatalog } from '../services/catalog/src/testing/domain-catalog.ts';
import { countingStore, type OperationCount, roundTripMs } from './history/counting-store.ts';
import { measureRulesShare } from './history/rules-share.ts';
import { interleaved, load, median, note, ratioOfRounds } from './storage/measure.ts';

const int = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export const SETTINGS = {
  /** Products actually simulated; figures are extrapolated to `targetAsins`. */
  asins: int('BENCH_HISTORY_ASINS', 40),
  targetAsins: 10_000,
  /** Hourly checks per product: a year. */
  hours: int('BENCH_HISTORY_HOURS', 8760),
  changeShare: 0.05,
  rounds: Math.max(3, int('BENCH_HISTORY_ROUNDS', 5)),
  readsPerRound: 200,
  /** Details reports a round through the report path; search reports are an eighth (48 items each), result-store writes twice as many. */
  reportsPerRound: int('BENCH_HISTORY_REPORTS', 200),
  get writesPerRound(): number {
    return 2 * this.reportsPerRound;
  },
  mongoUrl: process.env.BENCH_MONGO_URL ?? process.env.TEST_MONGO_URL,
};

export interface HistoryFigure {
  variant: 'embedded' | 'mongodb';
  name: string;
  value: string;
  goal: string;
  pass: boolean | null;
  detail: string;
}

const ORG = 'org_bench';
const START = Date.UTC(2025, 0, 1);
const asinOf = (n: number): string => `B${String(n).padStart(9, '0')}`;
const hourAt = (h: number): string => new Date(START + h * 3_600_000).toISOString();

/** A product record of a realistic size: the tracked values and the text a details page carries. */
function product(asin: string, price: number): ProductRecord {
  return {
    asin,
    marketplace: 'amazon.com',
    title: `Product ${asin} with a long descriptive title, 2-pack, USB-C, braided, 6 ft`,
    url: `https://www.amazon.com/dp/${asin}`,
    brand: 'Brand',
    price: { amount: price, currency: 'USD', raw: `$${price.toFixed(2)}` },
    listPrice: { amount: 29.99, currency: 'USD', raw: '$29.99' },
    rating: 4.5,
    reviewCount: 1234,
    availability: 'In Stock',
    inStock: true,
    seller: 'Brand Store',
    otherOffersCount: 4,
    features: Array.from({ length: 6 }, (_, i) => `Feature ${i}: ${'a detailed sentence about the product. '.repeat(3)}`),
    description: 'A description. '.repeat(40),
    images: Array.from({ length: 7 }, (_, i) => `https://m.media-amazon.com/images/I/${asin}-${i}.jpg`),
    bestSellersRank: [
      { rank: 1520, category: 'Electronics' },
      { rank: 12, category: 'USB Cables' },
    ],
    categories: ['Electronics', 'Computers & Accessories', 'Cables', 'USB Cables'],
    quality: { status: 'complete', missing: [] },
    missingFields: ['coupon', 'deal'],
  };
}

function searchItems(keyword: string, count: number): SearchRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    asin: asinOf(900_000 + i),
    title: `Item ${i} ${keyword}`,
    url: `https://www.amazon.com/dp/${asinOf(900_000 + i)}`,
    image: `https://m.media-amazon.com/images/I/${i}.jpg`,
    price: { amount: 10 + i, currency: 'USD', raw: `$${10 + i}` },
    rank: i + 1,
    position: i + 1,
    page: 1,
    keyword,
    marketplace: 'amazon.com',
    sponsored: false,
    prime: true,
    rating: 4.2,
    reviewCount: 100 + i,
    quality: { status: 'complete', missing: [] },
    missingFields: [],
  }));
}

/** A deterministic draw in [0, 1) per (product, hour), so both stores see the same changes. */
function draw(n: number, h: number): number {
  let x = (n * 2_654_435_761 + h * 40_503 + 12_345) >>> 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return (x >>> 0) / 4_294_967_296;
}

async function storageFigures(variant: HistoryFigure['variant'], store: DocumentStore, file: string | undefined, figures: HistoryFigure[]): Promise<string> {
  const observations = new ObservationRepository(store);
  await observations.init();
  const recorder = new HistoryRecorder({ observations });
  const { asins, hours, changeShare, targetAsins } = SETTINGS;
  const prices = Array.from({ length: asins }, () => 19.99);
  /** Hour `h`'s check of product `n`, at its current price. */
  const check = (h: number, n: number) =>
    recorder.observe({
      organizationId: ORG,
      jobId: `job_${h}`,
      jobType: 'details',
      config: {},
      targetIndex: n,
      records: [product(asinOf(n), prices[n] as number)],
      at: hourAt(h),
    });
  const started = performance.now();
  let changed = 0;
  for (let h = 0; h < hours; h += 1) {
    for (let n = 0; n < asins; n += 1) {
      if (h > 0 && draw(n, h) < changeShare) {
        prices[n] = Math.round(((prices[n] as number) + (draw(n + 7, h) < 0.5 ? -1 : 1)) * 100) / 100;
        changed += 1;
      }
      await check(h, n);
    }
    if (h % 1000 === 999) note(`${variant}: simulated hour ${h + 1} of ${hours} (${((performance.now() - started) / 1000).toFixed(0)} s, load ${load()})`);
  }
  const seconds = (performance.now() - started) / 1000;
  const checks = asins * hours;
  const { rows, bytes } = await observations.footprint(ORG);
  // Unchanged checks on top: rows and bytes before and after.
  const unchangedChecks = asins * 24;
  for (let h = hours; h < hours + 24; h += 1) {
    for (let n = 0; n < asins; n += 1) {
      await check(h, n);
    }
  }
  const after = await observations.footprint(ORG);
  const scale = targetAsins / asins;
  figures.push({
    variant,
    name: `(a) rows for ${targetAsins.toLocaleString('en')} products × ${hours.toLocaleString('en')} hourly checks (extrapolated ×${scale} from ${asins})`,
    value: `${Math.round(rows * scale).toLocaleString('en')} rows, ${((bytes * scale) / 1e9).toFixed(2)} GB of JSON`,
    goal: '—',
    pass: null,
    detail: `simulated: ${checks.toLocaleString('en')} checks, ${changed.toLocaleString('en')} changes (${((changed / checks) * 100).toFixed(2)} %), ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB JSON (${Math.round(bytes / rows)} B/row)${file ? `, SQLite file ${(fileBytes(file) / 1e6).toFixed(1)} MB` : ''}; ${(checks / seconds).toFixed(0)} checks/s`,
  });
  figures.push({
    variant,
    name: '(a) bytes per unchanged check',
    value: `${((after.bytes - bytes) / unchangedChecks).toFixed(3)} B`,
    goal: '≈ 0',
    pass: Math.abs(after.bytes - bytes) / unchangedChecks < 1 && after.rows === rows,
    detail: `${unchangedChecks.toLocaleString('en')} unchanged checks: rows ${rows} → ${after.rows}, JSON bytes ${bytes} → ${after.bytes}`,
  });
  return asinOf(0);
}

function fileBytes(file: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // no WAL file
    }
  }
  return total;
}

async function readFigures(variant: HistoryFigure['variant'], store: DocumentStore, asin: string, figures: HistoryFigure[]): Promise<void> {
  const observations = new ObservationRepository(store);
  const history = new HistoryService({ clock: systemClock }, { observations, retentionDays: 400 });
  const rows = store.collection<Document>(OBSERVATIONS_COLLECTION);
  const subjectId = subjectIdOf(ORG, { kind: 'product', marketplace: 'amazon.com', asin, zip: null });
  // The whole history, as a chart of the year asks for it (a `from`/`to` window is read from the same index, the bounds checked per row).
  const query = { limit: 1000 };
  const expected = (await history.productHistory(ORG, asin, query)).points.length;
  const bareCount = (await rows.find({ organizationId: ORG, subjectId }, { sort: { seq: 1 } })).length;
  const timed = async (read: () => Promise<unknown>): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < SETTINGS.readsPerRound; i += 1) {
      const t = performance.now();
      await read();
      times.push(performance.now() - t);
    }
    return median(times);
  };
  const result = await interleaved(
    SETTINGS.rounds,
    {
      service: () => timed(() => history.productHistory(ORG, asin, query)),
      bare: () => timed(() => rows.find({ organizationId: ORG, subjectId }, { sort: { seq: 1 } })),
    },
    (round, values) =>
      note(`${variant} read round ${round + 1}: service p50 ${values.service.toFixed(3)} ms, bare ${values.bare.toFixed(3)} ms (load ${load()})`),
  );
  const p50 = median(result.service);
  figures.push({
    variant,
    name: `(b) one product's year of history (${expected} change points), p50`,
    value: `${p50.toFixed(2)} ms`,
    goal: variant === 'embedded' ? '≤ 5 ms' : '—',
    pass: variant === 'embedded' ? p50 <= 5 : null,
    detail: `median of ${SETTINGS.rounds} rounds' p50s over ${SETTINGS.readsPerRound} reads each (limit 1000); bare p50 ${median(result.bare).toFixed(2)} ms for ${bareCount} rows`,
  });
  const speed = ratioOfRounds(result.bare, result.service);
  figures.push({
    variant,
    name: '(b) its speed ÷ a bare indexed range read of the same rows',
    value: speed.toFixed(2),
    goal: '≥ 0.8',
    pass: speed >= 0.8,
    detail: "bare: the collection's find on (organizationId, subjectId) sorted by seq, served by the same index",
  });
}

async function writeFigures(variant: HistoryFigure['variant'], store: DocumentStore, figures: HistoryFigure[]): Promise<void> {
  const resultRows = new ResultRepository(store);
  await resultRows.init();
  const results = new ResultStore({ rows: resultRows });
  const observations = new ObservationRepository(store);
  const recorder = new HistoryRecorder({ observations });
  let job = 0;
  // Each round checks the same products again; 5 % of them show a new price (the steady state of (a)).
  const prices = Array.from({ length: SETTINGS.writesPerRound }, () => 10);
  const run = (kind: 'details' | 'search', observe: boolean) => async (): Promise<number> => {
    job += 1;
    const jobId = `bench_${variant}_${job}_${randomUUID().slice(0, 6)}`;
    const t = performance.now();
    for (let i = 0; i < SETTINGS.writesPerRound / (kind === 'search' ? 8 : 1); i += 1) {
      if (kind === 'details' && draw(i, job) < SETTINGS.changeShare) prices[i] = (prices[i] as number) + 1;
      const records = kind === 'details' ? [product(asinOf(500_000 + i), prices[i] as number)] : searchItems(`keyword ${i}`, 48);
      await results.replaceTarget(jobId, i, records);
      if (observe) {
        await recorder.observe({
          organizationId: ORG,
          jobId,
          jobType: kind,
          config: {},
          targetIndex: i,
          records,
          at: new Date(START + job * 3_600_000).toISOString(),
        });
      }
    }
    return performance.now() - t;
  };
  // A warm-up round so both cases write over existing subjects (the steady state: products checked before).
  await run('details', true)();
  await run('search', true)();
  const result = await interleaved(
    SETTINGS.rounds,
    {
      detailsWith: run('details', true),
      detailsWithout: run('details', false),
      searchWith: run('search', true),
      searchWithout: run('search', false),
    },
    (round, v) =>
      note(
        `${variant} write round ${round + 1}: details ${v.detailsWith.toFixed(0)} / ${v.detailsWithout.toFixed(0)} ms, search ${v.searchWith.toFixed(0)} / ${v.searchWithout.toFixed(0)} ms (load ${load()})`,
      ),
  );
  const details = ratioOfRounds(result.detailsWith, result.detailsWithout);
  const search = ratioOfRounds(result.searchWith, result.searchWithout);
  figures.push({
    variant,
    name: "(c″) the result store alone: a details target's rows with its observation ÷ without",
    value: details.toFixed(2),
    goal: '—',
    pass: null,
    detail: `${SETTINGS.writesPerRound} one-record targets per round (ResultStore.replaceTarget, then HistoryRecorder.observe), each product seen before, 5 % with a new price`,
  });
  figures.push({
    variant,
    name: "(c‴) the result store alone: a 48-item search target's rows with its observations ÷ without",
    value: search.toFixed(2),
    goal: '—',
    pass: null,
    detail: `${SETTINGS.writesPerRound / 8} targets of 48 records per round, ranks unchanged (one conditional update of the keyword's tally a target)`,
  });
}

/**
 * (c) as a report is stored: the worker's report of a target through the report path (the job
 * read, the lease, the rows, the observations, the target's update, the last one finishing and
 * settling the job), with history ÷ with history's write replaced by nothing. Two catalogs on one
 * store, so both write into tables of the same size.
 */
async function reportFigures(variant: HistoryFigure['variant'], store: DocumentStore, figures: HistoryFigure[]): Promise<void> {
  // Each catalog's store operations are counted, and the store's bare round trip timed in the same
  // rounds: the observation's extra round trips at that price are the server's share of (c).
  const opsWith: OperationCount = { calls: 0 };
  const opsWithout: OperationCount = { calls: 0 };
  const withHistory = await domainCatalog({ store: countingStore(store, opsWith) });
  const without = await domainCatalog({ store: countingStore(store, opsWithout) });
  const extraOps: number[] = [];
  const reportOps = new Map<typeof withHistory, number>();
  for (const billing of [withHistory.billing, without.billing]) {
    billing.startingCredits = 1e12;
    billing.limits = { jobsPerMonth: 1e9, targetsPerMonth: 1e12, exportsPerMonth: 1e9 };
  }
  without.catalog.historyRecorder.observe = async () => [];
  const actor = { userId: 'usr_bench', organizationId: ORG };
  const projectA = await withHistory.catalog.projects.create(actor, 'with');
  const projectB = await without.catalog.projects.create(actor, 'without');
  const detailsTargets = SETTINGS.reportsPerRound;
  const searchTargets = Math.max(1, Math.round(SETTINGS.reportsPerRound / 8));
  const prices = Array.from({ length: detailsTargets }, () => 10);
  let round = 0;
  const report = (d: typeof withHistory, projectId: string, kind: 'details' | 'search') => async (): Promise<number> => {
    round += 1;
    const targets =
      kind === 'details'
        ? Array.from({ length: detailsTargets }, (_, i) => asinOf(600_000 + i))
        : Array.from({ length: searchTargets }, (_, i) => `keyword ${i}`);
    const job = await d.catalog.jobs.create(actor, projectId, { type: kind, targets });
    let elapsed = 0;
    const ops = d === withHistory ? opsWith : opsWithout;
    let calls = 0;
    for (let i = 0; i < targets.length; i += 1) {
      if (kind === 'details' && draw(i, round) < SETTINGS.changeShare) prices[i] = (prices[i] as number) + 1;
      const items = kind === 'details' ? [product(targets[i] as string, prices[i] as number)] : searchItems(targets[i] as string, 48);
      const before = ops.calls;
      const t = performance.now();
      await d.catalog.progress.reportTarget(job._id, i, { status: 'success', items });
      elapsed += performance.now() - t;
      calls += ops.calls - before;
    }
    if (kind === 'details') reportOps.set(d, calls / targets.length);
    if (kind === 'details' && reportOps.size === 2) {
      extraOps.push((reportOps.get(withHistory) as number) - (reportOps.get(without) as number));
      reportOps.clear();
    }
    return elapsed;
  };
  // Warm-up: every product and keyword seen once by the catalog with history.
  await report(withHistory, projectA._id, 'details')();
  await report(withHistory, projectA._id, 'search')();
  const result = await interleaved(
    SETTINGS.rounds,
    {
      detailsWith: report(withHistory, projectA._id, 'details'),
      detailsWithout: report(without, projectB._id, 'details'),
      searchWith: report(withHistory, projectA._id, 'search'),
      searchWithout: report(without, projectB._id, 'search'),
      // The store's bare round trip, in the same rounds (as many operations as a round's reports).
      roundTripMs: () => roundTripMs(store, detailsTargets),
    },
    (r, v) =>
      note(
        `${variant} report round ${r + 1}: details ${v.detailsWith.toFixed(0)} / ${v.detailsWithout.toFixed(0)} ms, search ${v.searchWith.toFixed(0)} / ${v.searchWithout.toFixed(0)} ms, store round trip ${v.roundTripMs.toFixed(3)} ms (load ${load()})`,
      ),
  );
  await withHistory.queues.close();
  await without.queues.close();
  const details = ratioOfRounds(result.detailsWith, result.detailsWithout);
  const search = ratioOfRounds(result.searchWith, result.searchWithout);
  // What the report path with its observation costs beyond the extra round trips, at the store's bare price.
  const extra = median(extraOps);
  const ownWith = result.detailsWith.map((ms, r) => ms - extra * detailsTargets * (result.roundTripMs[r] as number));
  const own = ratioOfRounds(ownWith, result.detailsWithout);
  figures.push({
    variant,
    name: '(c) storing a details report with its observation ÷ without',
    value: details.toFixed(2),
    goal: '≤ 1.2',
    pass: details <= 1.2,
    detail: `${detailsTargets} one-record targets per round through TargetProgress.reportTarget, each product seen before, 5 % with a new price; ${(median(result.detailsWithout) / detailsTargets).toFixed(3)} ms per report without`,
  });
  figures.push({
    variant,
    name: "(c) the same, the observation's extra store round trips counted at the store's bare round trip",
    value: own.toFixed(2),
    goal: '≤ 1.2',
    pass: own <= 1.2,
    detail: `${extra.toFixed(2)} more store operations a report with the observation; bare round trip ${median(result.roundTripMs).toFixed(3)} ms (point read / point update of one document, same adapter and driver, same rounds)`,
  });
  figures.push({
    variant,
    name: '(c′) the same for search reports of 48 items (48 rank subjects each)',
    value: search.toFixed(2),
    goal: '≤ 1.2',
    pass: search <= 1.2,
    detail: `${searchTargets} targets per round, ranks unchanged (the keyword's tally counts each); ${(median(result.searchWithout) / searchTargets).toFixed(3)} ms per report without`,
  });
}

export async function runHistoryBench(): Promise<{ figures: HistoryFigure[]; skipped: string[]; loads: string[] }> {
  const figures: HistoryFigure[] = [];
  const skipped: string[] = [];
  const loads = [load()];
  const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  const file = join(dir, 'catalog.sqlite');
  const embedded = new EmbeddedDocumentStore({ path: file });
  try {
    const asin = await storageFigures('embedded', embedded, file, figures);
    await readFigures('embedded', embedded, asin, figures);
    await reportFigures('embedded', embedded, figures);
    await writeFigures('embedded', embedded, figures);
  } finally {
    await embedded.close();
    rmSync(dir, { recursive: true, force: true });
  }
  loads.push(load());
  if (!SETTINGS.mongoUrl) skipped.push('mongodb: set BENCH_MONGO_URL (or TEST_MONGO_URL) to include it');
  else {
    const mongo = new MongoDocumentStore({ url: SETTINGS.mongoUrl, database: `bench_history_${randomUUID().slice(0, 8)}` });
    try {
      const asin = await storageFigures('mongodb', mongo, undefined, figures);
      await readFigures('mongodb', mongo, asin, figures);
      await reportFigures('mongodb', mongo, figures);
      await writeFigures('mongodb', mongo, figures);
    } finally {
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
    }
    loads.push(load());
  }
  return { figures, skipped, loads };
}

export async function main(): Promise<void> {
  const S = SETTINGS;
  console.log(
    `History: ${S.asins} products simulated for ${S.hours} hourly checks (${S.changeShare * 100} % of checks change a value), figures extrapolated to ${S.targetAsins.toLocaleString('en')}; ${S.rounds} interleaved rounds; load average at start ${load()}\n`,
  );
  const result = await runHistoryBench();
  for (const reason of result.skipped) console.log(`(${reason})`);
  console.log(`\nload average: ${result.loads.join(' → ')}\n`);
  console.log('| variant | figure | value | goal | pass | detail |');
  console.log('|---|---|---|---|---|---|');
  for (const f of result.figures)
    console.log(`| ${f.variant} | ${f.name} | ${f.value} | ${f.goal} | ${f.pass === null ? '—' : f.pass ? 'pass' : '**fail**'} | ${f.detail} |`);
  // (d) Monitors' rules on the report path: an hour's reports of 10,000 monitored targets, as a share of one core.
  const rules = await measureRulesShare(S.rounds);
  for (const mix of rules.sharePerMix) {
    const share = `${(mix.share * 100).toFixed(3)} %`;
    console.log(
      `| embedded | (d) rules of 10,000 monitored targets an hour, ${mix.changeShare * 100} % of reports changed: CPU share of one core | ${share} | ≤ 5 % | ${mix.share <= 0.05 ? 'pass' : '**fail**'} | ${mix.perReportUs.toFixed(1)} µs a report; ÷ the same reports of no monitor's job: ${mix.baselineRatio.toFixed(1)} |`,
    );
  }
  console.log(`\nload average after (d): ${load()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
