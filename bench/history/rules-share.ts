// (d) of the history bench: what evaluating monitors' rules costs on the report path. 10,000
// monitored details targets are reported in an hour (ten monitors of 1,000 targets, 20 rules
// each); every report goes through the monitors' evaluation as catalog runs it after history
// (the run looked up by the job's id, the monitor read, the rules applied to the changes), on the
// embedded store. Two mixes: 5 % of reports carrying a change (as the storage figure assumes) and
// every report carrying one (the worst case). The baseline, interleaved: the same reports from a
// job of no monitor (one read by key each). The figure is the CPU the hour's reports take, as a
// share of one core-hour. Firing an event (its write and webhook) is not counted: it happens only
// when a rule fires, and its cost is the outbox's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MonitorRule, ObservedChange, ProductRecord } from '@crawl/contracts';
import { EmbeddedDocumentStore } from '../../packages/storage-sqlite/src/index.ts';
import { MonitorRepository, MonitorRunRepository, MonitorTriggers, type MonitorTriggerParts } from '../../services/catalog/src/features/monitors/index.ts';
import { interleaved, median, ratioOfRounds } from '../storage/measure.ts';

const MONITORS = 10;
const TARGETS_PER_MONITOR = 1_000;
const REPORTS_PER_HOUR = MONITORS * TARGETS_PER_MONITOR;
const CORE_HOUR_SECONDS = 3_600;

export interface RulesShareFigures {
  /** CPU share of one core for an hour's reports, per mix (median of rounds). */
  sharePerMix: { changeShare: number; share: number; perReportUs: number; baselineRatio: number }[];
  rounds: number;
}

/** 20 rules over the fields a price tracker watches. */
function rules(): MonitorRule[] {
  const list: MonitorRule[] = [
    { field: 'price', op: 'dropsBy', value: 10 },
    { field: 'price', op: 'risesBy', value: 10 },
    { field: 'price', op: 'below', value: 15 },
    { field: 'price', op: 'above', value: 40 },
    { field: 'price', op: 'changed' },
    { field: 'listPrice', op: 'changed' },
    { field: 'inStock', op: 'becomesUnavailable' },
    { field: 'inStock', op: 'becomesAvailable' },
    { field: 'buyBoxSeller', op: 'sellerChanges' },
    { field: 'rating', op: 'below', value: 4 },
    { field: 'reviewCount', op: 'risesBy', value: 5 },
    { field: 'offerCount', op: 'above', value: 10 },
    { field: 'bestSellersRank', op: 'risesBy', value: 50 },
    { field: 'bestSellersRank', op: 'dropsBy', value: 50 },
    { field: 'hasCoupon', op: 'changed' },
    { field: 'hasDeal', op: 'changed' },
    { field: 'availability', op: 'changed' },
    { field: 'currency', op: 'changed' },
    { field: 'rating', op: 'changed' },
    { field: 'price', op: 'dropsBy', value: 25 },
  ];
  return list;
}

const asinOf = (monitor: number, target: number): string => `B${String(monitor).padStart(2, '0')}${String(target).padStart(7, '0')}`;

function record(asin: string): ProductRecord {
  return {
    asin,
    marketplace: 'amazon.com',
    title: `Product ${asin}`,
    url: `https://www.amazon.com/dp/${asin}`,
    price: { amount: 19.99, currency: 'USD', raw: '$19.99' },
    quality: { status: 'complete', missing: [] },
    missingFields: [],
  };
}

/** A change of price (a drop of 12 %) read from the target's first record: it fires two rules. */
function priceChange(jobId: string, targetIndex: number, asin: string, hour: number): ObservedChange {
  return {
    subject: { kind: 'product', marketplace: 'amazon.com', asin, zip: null },
    field: 'price',
    previous: 22.71,
    current: 19.99,
    previousObservedAt: new Date(Date.UTC(2026, 0, 1, hour - 1)).toISOString(),
    observedAt: new Date(Date.UTC(2026, 0, 1, hour)).toISOString(),
    jobId,
    resultId: `${jobId}:${targetIndex}:0`,
  };
}

export async function measureRulesShare(rounds: number): Promise<RulesShareFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rules-'));
  const store = new EmbeddedDocumentStore({ path: join(dir, 'catalog.db') });
  try {
    const monitors = new MonitorRepository(store);
    const runs = new MonitorRunRepository(store);
    await monitors.init();
    await runs.init();
    let fired = 0;
    // Stand-ins for what follows a firing (an event's write, a confirmation's job): counted, not done.
    const parts: MonitorTriggerParts = {
      monitors,
      runs,
      alerts: { fire: async () => void (fired += 1), inCooldown: async () => false } as unknown as MonitorTriggerParts['alerts'],
      confirmations: { request: async () => undefined, observe: async () => undefined } as unknown as MonitorTriggerParts['confirmations'],
    };
    const triggers = new MonitorTriggers(parts);
    const now = new Date().toISOString();
    const jobs: string[] = [];
    for (let m = 0; m < MONITORS; m += 1) {
      const id = `mon_bench_${m}`;
      const targets = Array.from({ length: TARGETS_PER_MONITOR }, (_, t) => asinOf(m, t));
      await monitors.insert({
        _id: id,
        organizationId: 'org_bench',
        projectId: 'prj_bench',
        name: `bench ${m}`,
        type: 'details',
        targets,
        domain: 'amazon.com',
        deliveryZip: null,
        every: '1h',
        cron: null,
        timezone: null,
        watch: [
          'price',
          'listPrice',
          'inStock',
          'buyBoxSeller',
          'rating',
          'reviewCount',
          'offerCount',
          'bestSellersRank',
          'hasCoupon',
          'hasDeal',
          'availability',
          'currency',
        ],
        rules: rules(),
        cooldown: '1h',
        maxCreditsPerMonth: null,
        status: 'active',
        pausedReason: null,
        pausedAt: null,
        resumesAt: null,
        nextRunAt: null,
        lastRunAt: null,
        lastJobId: null,
        lastError: null,
        lastTriggeredAt: null,
        usage: { month: now.slice(0, 7), credits: 0 },
        runCount: 0,
        createdBy: 'usr_bench',
        createdAt: now,
        updatedAt: now,
      });
      const jobId = `job_bench_${m}`;
      await runs.insert({ _id: jobId, monitorId: id, organizationId: 'org_bench', kind: 'scheduled', createdAt: now });
      jobs.push(jobId);
    }

    /** An hour's reports; `monitored` false reports the same from jobs of no monitor. @returns CPU seconds. */
    const hour = async (changeShare: number, monitored: boolean): Promise<number> => {
      const every = Math.round(1 / changeShare);
      const started = process.cpuUsage();
      for (let m = 0; m < MONITORS; m += 1) {
        const jobId = monitored ? (jobs[m] as string) : `job_plain_${m}`;
        for (let t = 0; t < TARGETS_PER_MONITOR; t += 1) {
          const asin = asinOf(m, t);
          const changes = t % every === 0 ? [priceChange(jobId, t, asin, 1)] : [];
          await triggers.evaluate({ jobId, targetIndex: t, records: [record(asin)] }, changes);
        }
      }
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1e6;
    };

    const sharePerMix: RulesShareFigures['sharePerMix'] = [];
    for (const changeShare of [0.05, 1]) {
      const seconds = await interleaved(rounds, { monitored: () => hour(changeShare, true), plain: () => hour(changeShare, false) });
      const cpu = median(seconds.monitored);
      sharePerMix.push({
        changeShare,
        share: cpu / CORE_HOUR_SECONDS,
        perReportUs: (cpu / REPORTS_PER_HOUR) * 1e6,
        baselineRatio: ratioOfRounds(seconds.monitored, seconds.plain),
      });
    }
    if (fired === 0) throw new Error('no rule fired: the bench measured nothing');
    return { sharePerMix, rounds };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
