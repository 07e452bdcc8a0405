/**
 * The history, ranks and monitors commands against a running all-in-one crawling a marketplace
 * simulator whose products the test changes through its control routes: a details monitor made
 * from flags records a baseline, fires on a price drop and a stock-out, lists them, and the
 * product's history shows both change points; a keyword's ranks read back from a search job.
 */
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runInProcess } from './cli-runner.ts';

const PRODUCT = 'B0SIM00041';
const KEYWORD = 'wireless mouse';

async function control(sim: Simulator, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sim.url}/__control${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`simulator control ${path}: ${res.status} ${await res.text()}`);
}

describe('crawl history, ranks and monitors against a running all-in-one', () => {
  let sim: Simulator;
  let api: ListeningService;
  const home = isolatedHome();
  const run = (argv: string[]) => runInProcess(argv, { home });
  let projectId: string;
  let monitorId: string;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 41 });
    api = await startListeningAllInOne({ MARKETPLACE: 'live', MARKETPLACE_BASE_URL: sim.url, MARKETPLACE_EXTRA_HOSTS: sim.host });
    const login = await run([
      'login',
      '--base-url',
      api.url,
      '--email',
      `watch-${Date.now()}@example.com`,
      '--password',
      'a-long-enough-password',
      '--register',
    ]);
    expect(login.code, login.stderr).toBe(0);
    projectId = JSON.parse((await run(['projects', 'create', 'Watched', '--json'])).stdout).id;
    await control(sim, `/products/${PRODUCT}`, { price: 50, inStock: true });
  });
  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  it('creates a monitor from flags, refuses a rule that does not read, and shows the rules in words', async () => {
    const refused = await run([
      'monitors',
      'create',
      '--project',
      projectId,
      '--name',
      'Mouse',
      '--type',
      'details',
      '--target',
      PRODUCT,
      '--every',
      '6h',
      '--rule',
      'price plunges 10',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--rule "price plunges 10": "plunges" is not an operation');

    const created = await run([
      ...['monitors', 'create', '--project', projectId, '--name', 'Mouse', '--type', 'details', '--target', PRODUCT],
      ...['--every', '6h', '--rule', 'price dropsBy 10', '--rule', 'inStock becomesUnavailable', '--max-credits-per-month', '100', '--json'],
    ]);
    expect(created.code, created.stderr).toBe(0);
    const monitor = JSON.parse(created.stdout);
    monitorId = monitor.id;
    expect(monitor).toMatchObject({ projectId, status: 'active', domain: 'amazon.com', watch: ['price', 'inStock'], maxCreditsPerMonth: 100 });

    const described = await run(['monitors', 'get', monitorId]);
    expect(described.stdout).toContain('Rules:\n  1. when price drops by 10 %\n  2. when it becomes unavailable');
    expect(described.stdout).toMatch(/^credits:\s+0 of 100 this month \(2 per run\)$/m);
    const listed = await run(['monitors', 'list', '--project', projectId]);
    expect(listed.stdout).toMatch(new RegExp(`^${monitorId}\\s+Mouse\\s+details\\s+1\\s+every 6h\\s+active`, 'm'));
  });

  it('a first run records the baseline; a price drop, then a stock-out, each fire in the next run, listed with their changes', async () => {
    const baseline = await run(['monitors', 'run', monitorId, '--wait']);
    expect(baseline.code, baseline.stderr).toBe(0);
    expect(baseline.stdout).toMatch(/^Run \S+ completed: 0 rule\(s\) fired$/m);

    await control(sim, `/products/${PRODUCT}`, { price: 40 });
    const dropped = await run(['monitors', 'run', monitorId, '--wait', '--json']);
    expect(dropped.code, dropped.stderr).toBe(0);
    const drop = JSON.parse(dropped.stdout);
    expect(drop.job).toMatchObject({ status: 'completed', monitorId, monitorRun: 'manual' });
    expect(drop.events).toMatchObject([{ field: 'price', previous: 50, current: 40, changePercent: -20, jobId: drop.job.id }]);

    await control(sim, `/products/${PRODUCT}`, { inStock: false });
    const gone = await run(['monitors', 'run', monitorId, '--wait']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toMatch(/^Run \S+ completed: 1 rule\(s\) fired$/m);
    expect(gone.stdout).toMatch(new RegExp(`${PRODUCT}\\s+stock yes → no\\s+when it becomes unavailable`));

    const listed = await run(['monitors', 'events', monitorId]);
    const rows = listed.stdout.split('\n').filter((line) => line.includes(PRODUCT));
    // Newest first: the stock-out, then the price drop.
    expect(rows[0]).toMatch(/stock yes → no\s+when it becomes unavailable/);
    expect(rows[1]).toMatch(new RegExp(`price 50 → 40 \\(−20 %\\)\\s+when price drops by 10 %\\s+${drop.job.id}$`));
    expect(listed.stdout).toContain('1-2 of 2');
  });

  it("history shows the product's change points with a price chart; --json has them all", async () => {
    const json = JSON.parse((await run(['history', PRODUCT, '--fields', 'price,inStock', '--json'])).stdout);
    expect(json.subject).toEqual({ marketplace: 'amazon.com', asin: PRODUCT, zip: null });
    const values = json.points.map((p: { values: { price?: unknown; inStock?: unknown } }) => [p.values.price, p.values.inStock]);
    expect(values.slice(0, 2)).toEqual([
      [50, true],
      [40, true],
    ]);
    expect(values[2]?.[1]).toBe(false);
    const table = await run(['history', PRODUCT]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${PRODUCT} on amazon\\.com: 3 change point\\(s\\)`, 'm'));
    expect(table.stdout).toMatch(/^price {2}[▁-█ ]+ {2}low 40\.00, high 50\.00, now /m);
    expect(table.stdout).toMatch(/\s50\.00 USD\s+yes\s/);
    expect(table.stdout).toMatch(/\s40\.00 USD\s+yes\s/);
    expect(table.stdout).toMatch(/\sno\s/);
  });

  it("ranks reads a keyword's products after a search job, and one product's points with --asin", async () => {
    const job = await run(['jobs', 'create', '--project', projectId, '--type', 'search', '--target', KEYWORD, '--wait']);
    expect(job.code, job.stderr).toBe(0);
    const json = JSON.parse((await run(['ranks', KEYWORD, '--json'])).stdout);
    expect(json).toMatchObject({ keyword: KEYWORD, marketplace: 'amazon.com', nextCursor: null });
    const ranked = json.points.filter((p: { organicRank?: number | null }) => typeof p.organicRank === 'number');
    expect(ranked.length).toBeGreaterThan(0);
    const first = ranked.find((p: { organicRank: number }) => p.organicRank === 1) ?? ranked[0];

    const summary = await run(['ranks', KEYWORD]);
    expect(summary.stdout).toMatch(/^ASIN\s+NOW\s+BEST\s+WORST\s+CHANGES\s+TREND$/m);
    expect(summary.stdout).toMatch(new RegExp(`^${first.asin}\\s+${first.organicRank}\\s+${first.organicRank}\\s+${first.organicRank}\\s+1\\s+[▁-█]+$`, 'm'));
    const one = await run(['ranks', KEYWORD, '--asin', first.asin]);
    expect(one.stdout).toMatch(new RegExp(`^organic place {2}[▁-█]+ {2}now ${first.organicRank}$`, 'm'));
  });

  it('pauses, resumes and deletes; an unknown monitor is NOT_FOUND (exit 1)', async () => {
    expect((await run(['monitors', 'pause', monitorId])).stdout).toBe(`Monitor ${monitorId} paused\n`);
    expect((await run(['monitors', 'resume', monitorId])).stdout).toMatch(new RegExp(`^Monitor ${monitorId} active, next run `));
    expect((await run(['monitors', 'delete', monitorId])).code).toBe(0);
    const gone = await run(['monitors', 'get', monitorId, '--json']);
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stderr)).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });
  });
});
