// What both variants share: the service's settings, filling a project with jobs, and the
// interleaved creates/s rounds.
import type { Api, Org } from './api.ts';
import { describeFailures, load, type LoadResult } from './load.ts';
import { interleaved, load as loadAverage, median, note, ratioOfRounds } from './measure.ts';
import type { ServiceProcess } from './server.ts';
import { SETTINGS } from './settings.ts';

export interface Figure {
  variant: 'embedded' | 'mongodb';
  name: string;
  value: number;
  unit: 'ratio' | 'req/s' | 'MB';
  goal: string;
  /** Always true on an informational figure (it has no goal to miss). */
  pass: boolean;
  /** Reported for context, with goal "—": a reference run or a baseline of the server itself. */
  informational?: boolean;
  /** The medians behind a ratio, sizes, failures. */
  detail: string;
}

export const CREATE_BODY = JSON.stringify({ type: 'search', targets: ['bench keyword'] });
const HUGE = '1000000000';

/**
 * The service's settings. Credits and monthly limits high enough for every job the bench creates
 * come from billing's documented defaults for new organizations (docs/billing.md): each
 * organization the bench registers gets them, with no admin step.
 */
export function serviceEnv(extra: Record<string, string>): Record<string, string> {
  return {
    MARKETPLACE: 'simulator',
    UPSTREAM_RATE_PER_MINUTE: String(SETTINGS.upstreamRate),
    SIGNUP_BONUS_CREDITS: HUGE,
    LIMIT_JOBS_PER_MONTH: HUGE,
    LIMIT_TARGETS_PER_MONTH: HUGE,
    LIMIT_EXPORTS_PER_MONTH: HUGE,
    RATE_LIMIT_OVERRIDES: 'auth-ip=10000,auth-ip-email=10000,register-ip=10000',
    ...extra,
    ...SETTINGS.serverEnv,
  };
}

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : String(n);
export const failures = (results: readonly LoadResult[]): string => results.map(describeFailures).filter(Boolean).join('; ');
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the project's job count stops moving for a second: creates the load generator gave
 * up on (timeouts) may still be running in the service, and must not spill into the next round.
 */
export async function quiesce(api: Api, org: Org, projectId: string, maxSeconds = 120): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000;
  let last = await api.countJobs(org, projectId);
  while (Date.now() < deadline) {
    await sleep(1000);
    const now = await api.countJobs(org, projectId);
    if (now === last) return now;
    last = now;
  }
  note(`the job count was still moving after ${maxSeconds} s`);
  return last;
}

/**
 * Creates `count` one-keyword search jobs through POST /projects/:id/jobs, topping up after
 * failures, until BENCH_FILL_SECONDS. @returns the jobs the project then holds (may be fewer).
 */
export async function fillJobs(
  service: ServiceProcess,
  api: Api,
  org: Org,
  projectId: string,
  count: number,
): Promise<{ jobs: number; seconds: number; complete: boolean }> {
  const start = performance.now();
  const deadline = Date.now() + SETTINGS.fillSeconds * 1000;
  let jobs = await api.countJobs(org, projectId);
  for (let attempt = 0; attempt < 5 && jobs < count && Date.now() < deadline; attempt += 1) {
    const missing = count - jobs;
    const r = await load({
      url: service.url,
      path: `/projects/${projectId}/jobs`,
      method: 'POST',
      body: CREATE_BODY,
      token: org.token,
      connections: Math.min(SETTINGS.createConcurrency, missing),
      amount: missing,
      seconds: Math.max(1, Math.ceil((deadline - Date.now()) / 1000)),
      timeoutSeconds: SETTINGS.timeoutSeconds,
    });
    jobs = r.timeouts > 0 ? await quiesce(api, org, projectId) : await api.countJobs(org, projectId);
    if (jobs < count && r.ok < missing) note(`filling: ${missing - r.ok} of ${missing} creates failed (${describeFailures(r)}); ${fmt(jobs)} jobs so far`);
  }
  const complete = jobs >= count;
  if (!complete) note(`filling stopped at ${fmt(jobs)} of ${fmt(count)} jobs (BENCH_FILL_SECONDS=${SETTINGS.fillSeconds})`);
  return { jobs, seconds: (performance.now() - start) / 1000, complete };
}

interface CreateRound extends LoadResult {
  /** Jobs in the project when the round started. */
  before: number;
}

/** Cases run in the same interleaved rounds as the creates (the MongoDB variant's driver baseline). */
export interface ExtraCases<T> {
  cases: Record<string, () => Promise<T>>;
  /** Appended to the round's note. */
  describe: (values: Record<string, T>) => string;
}

/**
 * Interleaved rounds of POST /projects/:id/jobs at the configured concurrency: the project with
 * many jobs, and each round a fresh organization whose project holds `smallJobs` jobs; plus
 * `extra` cases in the same rotation, when given.
 */
export async function measureCreates<T = never>(
  service: ServiceProcess,
  api: Api,
  org: Org,
  manyProject: string,
  seconds: number,
  variant: Figure['variant'],
  extra?: ExtraCases<T>,
) {
  const S = SETTINGS;
  const run = async (owner: Org, projectId: string, roundSeconds = seconds): Promise<CreateRound> => {
    const before = await api.countJobs(owner, projectId);
    const r = await load({
      url: service.url,
      path: `/projects/${projectId}/jobs`,
      method: 'POST',
      body: CREATE_BODY,
      token: owner.token,
      connections: S.createConcurrency,
      seconds: roundSeconds,
      timeoutSeconds: S.timeoutSeconds,
    });
    if (r.timeouts > 0) await quiesce(api, owner, projectId);
    return { ...r, before };
  };
  const freshProject = async (label: string) => {
    const owner = await api.registerOrg(label);
    const projectId = await api.createProject(owner, `bench: ${label}`);
    for (let i = 0; i < S.smallJobs; i += 1) await api.createJob(owner, projectId, [`bench ${label} ${i}`]);
    return { owner, projectId };
  };
  const warm = await freshProject('warm-up');
  await run(warm.owner, warm.projectId, Math.min(3, seconds));
  const cases: Record<string, () => Promise<CreateRound | T>> = {
    many: () => run(org, manyProject),
    few: async () => {
      const fresh = await freshProject('fresh');
      return run(fresh.owner, fresh.projectId);
    },
    ...extra?.cases,
  };
  const allRounds = await interleaved(S.rounds, cases, (round, v) => {
    const many = v.many as CreateRound;
    const few = v.few as CreateRound;
    const problems = [describeFailures(many), describeFailures(few)].filter(Boolean).join('; ');
    const extraValues = Object.fromEntries(Object.keys(extra?.cases ?? {}).map((k) => [k, v[k] as T]));
    note(
      `creates round ${round + 1}: ${fmt(many.rps)}/s from ${fmt(many.before)} jobs vs ${fmt(few.rps)}/s from ${fmt(few.before)} jobs` +
        `${problems ? ` (${problems})` : ''}${extra ? `; ${extra.describe(extraValues)}` : ''}; load average ${loadAverage()}`,
    );
  });
  const rounds = { many: (allRounds.many ?? []) as CreateRound[], few: (allRounds.few ?? []) as CreateRound[] };
  const extraRounds = Object.fromEntries(Object.keys(extra?.cases ?? {}).map((k) => [k, (allRounds[k] ?? []) as T[]])) as Record<string, T[]>;
  const all = [...rounds.many, ...rounds.few];
  const errors = all.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
  const timeouts = all.reduce((sum, r) => sum + r.timeouts, 0);
  const ratio = ratioOfRounds(
    rounds.many.map((r) => r.rps),
    rounds.few.map((r) => r.rps),
  );
  const mongo = variant === 'mongodb';
  const ratioFigure: Figure = {
    variant,
    name: `creates/s at ${fmt(rounds.many[0]?.before ?? 0)}+ jobs ÷ at ${S.smallJobs} jobs, concurrency ${S.createConcurrency}, ${seconds} s rounds`,
    value: ratio,
    unit: 'ratio',
    goal: mongo ? '≥ 0.5, 0 errors, 0 timeouts' : '≥ 0.8',
    pass: ratio >= (mongo ? 0.5 : 0.8) && errors === 0 && timeouts === 0,
    detail:
      `${fmt(median(rounds.many.map((r) => r.rps)))} vs ${fmt(median(rounds.few.map((r) => r.rps)))} creates/s; ` +
      `rounds started at ${rounds.many.map((r) => fmt(r.before)).join(' / ')} jobs; ${errors} errors, ${timeouts} timeouts (${S.timeoutSeconds} s); ` +
      `p99 ${fmt(median(rounds.many.map((r) => r.latencyP99)))} vs ${fmt(median(rounds.few.map((r) => r.latencyP99)))} ms`,
  };
  return { many: rounds.many, few: rounds.few, errors, timeouts, ratioFigure, extra: extraRounds };
}
