// The embedded-store variant: list, results pages, latency under paging, exports, RSS and
// creates/s of the all-in-one process on its own DATA_DIR.
// One file over 300 lines on purpose: it is the variant's script, figure after figure in the order
// they run against one service process (the order matters: see docs/benchmarks.md, "Order").
import { Worker } from 'node:worker_threads';
import { Api, cursorPath, download, resultsPath, type Org } from './api.ts';
import { startBare, type BareServer } from './bare.ts';
import { load, type LoadResult } from './load.ts';
import { interleaved, load as loadAverage, median, note, ratioOfRounds } from './measure.ts';
import type { PagerInput } from './pager-worker.ts';
import { resultTargets } from './rows.ts';
import { startService } from './server.ts';
import { SETTINGS } from './settings.ts';
import { failures, fillJobs, fmt, measureCreates, serviceEnv, sleep, type Figure } from './shared.ts';

/**
 * A search job with `rows` result rows: one keyword per `itemsPerReport` rows, each target reported
 * as a success with its items through catalog's worker route (the path the crawler-worker takes).
 * The rows are `resultTargets(label, rows, itemsPerReport)`: the bare export server regenerates them.
 */
async function fillResults(
  api: Api,
  org: Org,
  projectId: string,
  rows: number,
  label: string,
): Promise<{ jobId: string; rows: number; label: string; seconds: number }> {
  const targets = resultTargets(label, rows, SETTINGS.itemsPerReport);
  if (targets.length > 1000)
    throw new Error(`${rows} rows need ${targets.length} targets; a job takes at most 1000 (raise BENCH_ITEMS_PER_REPORT, at most 5000)`);
  const job = await api.createJob(
    org,
    projectId,
    targets.map((t) => t.keyword),
  );
  const start = performance.now();
  for (const [t, target] of targets.entries()) await api.reportTarget(job.id, t, target.items);
  const seconds = (performance.now() - start) / 1000;
  const stored = await api.resultsPage(org, job.id, 1, 1);
  const view = await api.getJob(org, job.id);
  if (stored.total !== rows) note(`WARNING: job ${job.id} holds ${stored.total} rows, expected ${rows} (a target was crawled before it was reported?)`);
  if (view.status !== 'completed') note(`WARNING: job ${job.id} is ${view.status} after every target was reported`);
  return { jobId: job.id, rows: stored.total, label, seconds };
}

/** The background pagers run in a worker thread so their client-side work does not delay the probe. */
function runPagers(input: PagerInput): Promise<LoadResult> {
  return new Promise((resolvePagers, reject) => {
    const worker = new Worker(new URL('./pager-worker.ts', import.meta.url), { workerData: input });
    let result: LoadResult | undefined;
    worker.once('message', (message: LoadResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolvePagers(result) : reject(new Error(`pager worker exited with ${code} and no result`))));
  });
}

export async function embeddedVariant(figures: Figure[]): Promise<void> {
  const S = SETTINGS;
  console.log(`### embedded store: ${fmt(S.jobs)} jobs, a ${fmt(S.rows)}-row job\n`);
  const service = await startService(serviceEnv({}), S.startTimeoutSeconds * 1000, S.serviceRoot);
  const push = (f: Omit<Figure, 'variant'>) => figures.push({ variant: 'embedded', ...f });
  try {
    const api = new Api(service.url, service.internalSecret);
    note(`all-in-one pid ${service.pid} on ${service.url}; RSS ${fmt(service.memory().rssMb)} MB at start; load average ${loadAverage()}`);
    const a = await api.registerOrg('a');
    const manyProject = await api.createProject(a, 'bench: many jobs');
    const fewProject = await api.createProject(a, 'bench: few jobs');
    const resultsProject = await api.createProject(a, 'bench: results');
    for (let i = 0; i < S.smallJobs; i += 1) await api.createJob(a, fewProject, [`bench few ${i}`]);
    const filled = await fillJobs(service, api, a, manyProject, S.jobs);
    const N = filled.jobs;
    note(
      `filled: ${fmt(N)} jobs in ${fmt(filled.seconds, 1)} s (${fmt(N / filled.seconds)} creates/s, concurrency ${S.createConcurrency}); load average ${loadAverage()}`,
    );
    // After the backlog, in the same organization: the crawler-worker (fair per organization, FIFO
    // within one) reaches these targets only after the jobs above, so the reported items stay.
    const big = await fillResults(api, a, resultsProject, S.rows, 'big');
    note(
      `filled: ${fmt(big.rows)} rows in ${fmt(big.seconds, 1)} s (${fmt(big.rows / big.seconds)} rows/s, ${S.itemsPerReport} per report) in job ${big.jobId}`,
    );
    const small = await fillResults(api, a, resultsProject, S.smallRows, 'small');
    const memAfterFill = service.memory();
    note(`RSS after filling ${fmt(memAfterFill.rssMb)} MB; load average ${loadAverage()}`);

    const read = (path: string, seconds = S.readSeconds) =>
      load({ url: service.url, path, token: a.token, connections: S.readConnections, seconds, timeoutSeconds: S.timeoutSeconds });

    // 2. GET /projects/:id/jobs?limit=20, many jobs ÷ few jobs (two projects of one organization).
    const listPath = (projectId: string) => `/projects/${projectId}/jobs?limit=20`;
    await read(listPath(manyProject), 1);
    await read(listPath(fewProject), 1);
    const list = await interleaved(S.rounds, { many: () => read(listPath(manyProject)), few: () => read(listPath(fewProject)) }, (round, v) =>
      note(
        `list round ${round + 1}: ${fmt(v.many.rps)} req/s (${fmt(N)} jobs) vs ${fmt(v.few.rps)} req/s (${S.smallJobs} jobs); load average ${loadAverage()}`,
      ),
    );
    const listFailures = failures([...list.many, ...list.few]);
    const listRatio = ratioOfRounds(
      list.many.map((r) => r.rps),
      list.few.map((r) => r.rps),
    );
    push({
      name: `GET /projects/:id/jobs?limit=20 req/s, ${fmt(N)} jobs ÷ ${S.smallJobs} jobs`,
      value: listRatio,
      unit: 'ratio',
      goal: '≥ 0.8',
      pass: listRatio >= 0.8 && !listFailures,
      detail: `${fmt(median(list.many.map((r) => r.rps)))} vs ${fmt(median(list.few.map((r) => r.rps)))} req/s, ${S.readConnections} connections${listFailures ? `; failures: ${listFailures}` : ''}`,
    });

    // 3. A results page of the big job (early and late) ÷ a page of the small job; same page size.
    // The late page by number (offset), and by cursor too where the service hands out cursors.
    const lastPage = Math.ceil(big.rows / S.pageSize);
    const beforeLast = await api.resultsPage(a, big.jobId, Math.max(1, lastPage - 1), S.pageSize);
    const pages: Record<string, string> = {
      small: resultsPath(small.jobId, 1, S.pageSize),
      early: resultsPath(big.jobId, 1, S.pageSize),
      late: resultsPath(big.jobId, lastPage, S.pageSize),
    };
    if (beforeLast.nextCursor !== null && lastPage > 1) pages.lateCursor = cursorPath(big.jobId, beforeLast.nextCursor, S.pageSize);
    else note('no pagination.nextCursor in the results: late page by number only');
    const lateCheck = await api.resultsPage(a, big.jobId, lastPage, S.pageSize);
    if (lateCheck.items.length === 0) note(`WARNING: page ${lastPage} of the big job is empty`);
    for (const path of Object.values(pages)) await read(path, 1);
    const results = await interleaved(S.rounds, Object.fromEntries(Object.entries(pages).map(([name, path]) => [name, () => read(path)])), (round, v) =>
      note(
        `results round ${round + 1}: ${Object.entries(v)
          .map(([name, r]) => `${name} ${fmt(r.rps)}`)
          .join(', ')} req/s; load average ${loadAverage()}`,
      ),
    );
    const resultFailures = failures(Object.values(results).flat());
    const smallRps = (results.small ?? []).map((r) => r.rps);
    const labels: Record<string, string> = { early: 'early page (1)', late: `late page (${lastPage})`, lateCursor: `late page (${lastPage}) by cursor` };
    for (const which of Object.keys(pages).filter((k) => k !== 'small')) {
      const rps = (results[which] ?? []).map((r) => r.rps);
      const ratio = ratioOfRounds(rps, smallRps);
      push({
        name: `GET /jobs/:id/results ${labels[which]} req/s, ${fmt(big.rows)}-row job ÷ ${S.smallRows}-row job`,
        value: ratio,
        unit: 'ratio',
        goal: '≥ 0.5',
        pass: ratio >= 0.5 && !resultFailures,
        detail: `${fmt(median(rps))} vs ${fmt(median(smallRps))} req/s, pageSize ${S.pageSize}, ${S.readConnections} connections${resultFailures ? `; failures: ${resultFailures}` : ''}`,
      });
    }

    // 4. p99 of GET /jobs/:id (the big job) while pagers walk its results ÷ its idle p99: with the
    // pagers at BENCH_PAGER_RATE pages/s each (the figure with the goal) and, for reference, closed
    // loop (each pager asks for the next page as soon as it has the last: that saturates the one
    // event loop, so it shows queueing rather than blocking). Idle and both loads in each round.
    const probe = (seconds = S.latencySeconds) =>
      load({
        url: service.url,
        path: `/jobs/${big.jobId}`,
        token: a.token,
        connections: 2,
        seconds,
        overallRate: S.probeRate,
        timeoutSeconds: S.timeoutSeconds,
      });
    const pagerInput: PagerInput = {
      url: service.url,
      token: a.token,
      jobId: big.jobId,
      pageSize: S.pagerPageSize,
      pages: Math.ceil(big.rows / S.pagerPageSize),
      clients: S.pagers,
      rate: S.pagerRate,
      seconds: S.latencySeconds + 1,
      timeoutSeconds: S.timeoutSeconds,
      cursors: (await api.resultsPage(a, big.jobId, 1, S.pagerPageSize)).nextCursor !== null,
    };
    const paced = S.pagerRate > 0;
    note(
      `pagers page by ${pagerInput.cursors ? 'cursor' : 'page number'}, ${S.pagerPageSize} rows a page, ` +
        (paced
          ? `${S.pagerRate} pages/s each (${fmt(S.pagerRate * S.pagers)} pages/s, ${fmt(S.pagerRate * S.pagers * S.pagerPageSize)} rows/s in all), and closed loop`
          : 'closed loop (BENCH_PAGER_RATE=0)'),
    );
    type LatencyRound = { probe: LoadResult; pagers: LoadResult | undefined };
    const loadedAt = (rate: number) => async (): Promise<LatencyRound> => {
      const pagers = runPagers({ ...pagerInput, rate });
      await sleep(500);
      const p = await probe();
      return { probe: p, pagers: await pagers };
    };
    const idle = async (): Promise<LatencyRound> => ({ probe: await probe(), pagers: undefined });
    await probe(1);
    const latencyCases: Record<string, () => Promise<LatencyRound>> = paced
      ? { idle, paced: loadedAt(S.pagerRate), closed: loadedAt(0) }
      : { idle, closed: loadedAt(0) };
    const latency = await interleaved(S.rounds, latencyCases, (round, v) =>
      note(
        `latency round ${round + 1}: p99 ${fmt(v.idle?.probe.latencyP99 ?? Number.NaN, 1)} ms idle` +
          (v.paced ? `, ${fmt(v.paced.probe.latencyP99, 1)} ms with ${S.pagers} pagers at ${S.pagerRate}/s (${fmt(v.paced.pagers?.rps ?? 0)} pages/s)` : '') +
          `, ${fmt(v.closed?.probe.latencyP99 ?? Number.NaN, 1)} ms with ${S.pagers} closed-loop pagers (${fmt(v.closed?.pagers?.rps ?? 0)} pages/s); load average ${loadAverage()}`,
      ),
    );
    const idleRounds = latency.idle ?? [];
    const idleP99 = idleRounds.map((r) => r.probe.latencyP99);
    const idleFailures = failures(idleRounds.map((r) => r.probe));
    for (const which of paced ? (['paced', 'closed'] as const) : (['closed'] as const)) {
      const rounds = latency[which] ?? [];
      const withGoal = which === 'paced' || !paced;
      const latencyFailures = [idleFailures, failures(rounds.flatMap((r) => [r.probe, ...(r.pagers ? [r.pagers] : [])]))].filter(Boolean).join('; ');
      const p99Ratio = ratioOfRounds(
        rounds.map((r) => r.probe.latencyP99),
        idleP99,
      );
      const pagersRps = median(rounds.map((r) => r.pagers?.rps ?? 0));
      const how = which === 'paced' ? `at ${S.pagerRate} pages/s each` : 'closed loop (as fast as answered)';
      push({
        name: `GET /jobs/:id p99 with ${S.pagers} clients paging the ${fmt(big.rows)}-row job ${how} ÷ idle p99${withGoal ? '' : ' (reference)'}`,
        value: p99Ratio,
        unit: 'ratio',
        goal: withGoal ? '≤ 3' : '—',
        pass: withGoal ? p99Ratio <= 3 && !latencyFailures : true,
        ...(withGoal ? {} : { informational: true }),
        detail:
          `p99 ${fmt(median(rounds.map((r) => r.probe.latencyP99)), 1)} vs ${fmt(median(idleP99), 1)} ms at ${S.probeRate} req/s; ` +
          `pagers ${fmt(pagersRps)} pages/s of ${S.pagerPageSize} (${fmt(pagersRps * S.pagerPageSize)} rows/s)${which === 'paced' ? `, asked ${fmt(S.pagerRate * S.pagers)}` : ''}` +
          `${latencyFailures ? `; failures: ${latencyFailures}` : ''}`,
      });
    }

    // 5. Export of the big job ÷ the same rows from a bare Fastify + JWT route (its own child
    // process), both downloaded with the same client code, body fully read.
    const bare: BareServer = await startBare({ label: big.label, rows: S.rows, itemsPerReport: S.itemsPerReport }, S.startTimeoutSeconds * 1000);
    try {
      note(`bare export server pid ${bare.pid} on ${bare.url}; RSS ${fmt(bare.memory().rssMb)} MB with the ${fmt(S.rows)} rows`);
      const gc = () => (globalThis as { gc?: () => void }).gc?.();
      const timed = (run: () => Promise<{ ms: number; bytes: number }>) => async () => {
        gc();
        return run();
      };
      const exportCases = {
        bareCsv: timed(() => download(bare.url + bare.exportPath('csv'), bare.token)),
        serviceCsv: timed(() => api.exportJob(a, big.jobId, 'csv')),
        bareJson: timed(() => download(bare.url + bare.exportPath('json'), bare.token)),
        serviceJson: timed(() => api.exportJob(a, big.jobId, 'json')),
      };
      for (const run of Object.values(exportCases)) await run(); // warm-up
      const exports = await interleaved(S.rounds, exportCases, (round, v) =>
        note(
          `export round ${round + 1}: CSV ${fmt(v.serviceCsv.ms)} ms (bare ${fmt(v.bareCsv.ms)}), JSON ${fmt(v.serviceJson.ms)} ms (bare ${fmt(v.bareJson.ms)}); load average ${loadAverage()}`,
        ),
      );
      for (const [format, bareRounds, served] of [
        ['CSV', exports.bareCsv, exports.serviceCsv],
        ['JSON', exports.bareJson, exports.serviceJson],
      ] as const) {
        const ratio = ratioOfRounds(
          bareRounds.map((r) => r.ms),
          served.map((r) => r.ms),
        );
        const bareBytes = median(bareRounds.map((r) => r.bytes));
        const serviceBytes = median(served.map((r) => r.bytes));
        const steady = [bareRounds, served].every((rounds) => rounds.every((r) => r.bytes === rounds[0]?.bytes));
        const sameSize = Math.abs(bareBytes - serviceBytes) <= 0.01 * Math.max(bareBytes, serviceBytes);
        const sizes = `${fmt(bareBytes)} vs ${fmt(serviceBytes)} bytes`;
        note(`${format} body sizes: bare ${fmt(bareBytes)} bytes, service ${fmt(serviceBytes)} bytes${sameSize ? ' (within 1%)' : ''}`);
        if (!sameSize) note(`WARNING: the ${format} bodies differ by more than 1% (${sizes}): the two sides are not exporting the same rows`);
        if (!steady) note(`WARNING: a ${format} body size changed between rounds`);
        push({
          name: `${format} export of ${fmt(big.rows)} rows: bare Fastify + JWT route time ÷ service time`,
          value: ratio,
          unit: 'ratio',
          goal: '≥ 0.8, same size ±1%',
          pass: ratio >= 0.8 && sameSize && steady,
          detail: `bare ${fmt(median(bareRounds.map((r) => r.ms)))} ms vs service ${fmt(median(served.map((r) => r.ms)))} ms (body fully read); ${sizes}${sameSize ? '' : ' (differ by more than 1%)'}`,
        });
      }
    } catch (error) {
      console.error(`the bare export server's last output:\n${bare.output().slice(-3000)}`);
      throw error;
    } finally {
      const code = await bare.stop();
      if (code !== 0) note(`the bare export server exited with ${code}`);
    }

    // 6. RSS with the big job and the jobs in place (after the reads and exports above).
    const mem = service.memory();
    push({
      name: `all-in-one RSS with ${fmt(N)} jobs and a ${fmt(big.rows)}-row job`,
      value: mem.rssMb,
      unit: 'MB',
      goal: '< 300',
      pass: mem.rssMb < 300,
      detail: `VmRSS after filling ${fmt(memAfterFill.rssMb)} MB, after reads and exports ${fmt(mem.rssMb)} MB; peak (VmHWM) ${fmt(mem.peakRssMb)} MB`,
    });

    // 1. Creates/s in the project with many jobs ÷ in a fresh organization's project with few.
    const creates = await measureCreates(service, api, a, manyProject, S.createSeconds, 'embedded');
    figures.push(creates.ratioFigure);
    const absolute = median(creates.many.map((r) => r.rps));
    push({
      name: `creates/s at ${fmt(N)}+ jobs, concurrency ${S.createConcurrency} (load generator on the same machine)`,
      value: absolute,
      unit: 'req/s',
      goal: '≥ 1,000',
      pass: absolute >= 1000 && creates.errors === 0 && creates.timeouts === 0,
      detail: `at ${S.smallJobs} jobs: ${fmt(median(creates.few.map((r) => r.rps)))} creates/s`,
    });
    const end = service.memory();
    note(
      `RSS at the end ${fmt(end.rssMb)} MB (peak ${fmt(end.peakRssMb)} MB), ${fmt(await api.countJobs(a, manyProject))} jobs in the large project; load average ${loadAverage()}`,
    );
  } catch (error) {
    console.error(`the service's last output:\n${service.output().slice(-3000)}`);
    throw error;
  } finally {
    const code = await service.stop();
    if (code !== 0) note(`the service exited with ${code}`);
  }
}
