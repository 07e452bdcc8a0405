import type { ObservedChange, ResultRecord } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import { isTerminalJob, type JobDoc, type JobLifecycle } from '../jobs/index.ts';
import type { ResultStore } from '../results/index.ts';
import type { Logger } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { ConfirmationDoc, ConfirmationRepository } from './confirmation-repository.ts';
import { ruleKey, subjectKey } from './event-keys.ts';
import type { MonitorAlerts } from './monitor-alerts.ts';
import type { MonitorDoc } from './monitor-model.ts';
import type { MonitorRepository } from './monitor-repository.ts';
import type { MonitorRunner } from './monitor-runner.ts';
import { baseField, ruleFires, type Firing } from './rule-evaluation.ts';

export interface MonitorConfirmationParts {
  confirmations: ConfirmationRepository;
  monitors: MonitorRepository;
  runner: MonitorRunner;
  alerts: MonitorAlerts;
  /** The confirmation job, read when it has ended. */
  jobs: Pick<JobLifecycle, 'getOwned'>;
  /** Its records: whether the product or the keyword's ASIN was on the page at all. */
  results: Pick<ResultStore, 'items'>;
}

/** A runner that claimed a confirmation and died leaves it to another after this long. */
const CLAIM_LEASE_MS = 10 * 60_000;

/**
 * The record field a confirmed product field is read from: the confirmation job requires it, so
 * a page without it is a partial (uncharged) target, which confirms nothing. Presence flags
 * (coupon, deal) are read from an absence too, so nothing is required for them.
 */
const REQUIRED_SOURCE: Readonly<Record<string, string>> = {
  price: 'price',
  listPrice: 'listPrice',
  currency: 'price',
  inStock: 'inStock',
  availability: 'availability',
  buyBoxSeller: 'seller',
  offerCount: 'otherOffersCount',
  rating: 'rating',
  reviewCount: 'reviewCount',
  bestSellersRank: 'bestSellersRank',
};

const sameSubjectField = (a: ObservedChange, b: ObservedChange): boolean => a.field === b.field && subjectKey(a.subject) === subjectKey(b.subject);

/**
 * `confirm: true` rules: a change they pass is not fired from the run's report but re-crawled
 * first, in a one-target job of the monitor (`monitorRun: confirmation`), created at the next tick.
 * When that job has ended it is decided: only a target that succeeded and was charged (no block,
 * no failure, nothing partial) can confirm, and a rule fires when the value the re-crawl found
 * (history's change for it, or, without one, the unchanged value on a page that showed the
 * subject) still passes it against the value before the change.
 */
export class MonitorConfirmations {
  readonly #parts: MonitorConfirmationParts;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(resources: CatalogResources, parts: MonitorConfirmationParts) {
    this.#parts = parts;
    this.#clock = resources.clock;
    this.#logger = resources.logger;
  }

  /** Asks once per run and target (the same report applied again asks nothing more). */
  async request(monitor: MonitorDoc, source: { jobId: string; targetIndex: number }, firings: readonly Firing[]): Promise<void> {
    const first = firings[0];
    if (!first) return;
    const at = this.#clock.now().toISOString();
    await this.#parts.confirmations.insertOnce({
      _id: `${source.jobId}:${source.targetIndex}`,
      organizationId: monitor.organizationId,
      projectId: monitor.projectId,
      monitorId: monitor._id,
      sourceJobId: source.jobId,
      targetIndex: source.targetIndex,
      target: first.target,
      candidates: firings.map(({ ruleIndex, rule, change }) => ({ ruleIndex, rule, change })),
      state: 'pending',
      jobId: null,
      observed: [],
      outcome: null,
      claimedAt: null,
      createdAt: at,
      updatedAt: at,
    });
  }

  /** The confirmation job's report brought changes: kept for the decision when the job ends. */
  async observe(confirmationId: string, changes: readonly ObservedChange[]): Promise<void> {
    await this.#parts.confirmations.addObserved(confirmationId, changes);
  }

  /** Creates the jobs of confirmations asked for (and of those whose runner died). @returns how many started. */
  async startPending(batch = 20): Promise<number> {
    const now = this.#clock.now();
    const { confirmations } = this.#parts;
    let started = 0;
    for (const read of await confirmations.findIn('pending', 'starting', new Date(now.getTime() - CLAIM_LEASE_MS).toISOString(), batch)) {
      const claimed = await confirmations.claim(read, 'starting', now.toISOString());
      if (!claimed) continue;
      if (await this.#start(claimed)) started += 1;
    }
    return started;
  }

  async #start(doc: ConfirmationDoc): Promise<boolean> {
    const { monitors, runner, confirmations } = this.#parts;
    const at = this.#clock.now().toISOString();
    const monitor = await monitors.findById(doc.monitorId);
    if (!monitor) {
      await confirmations.markDecided(doc._id, 'not_started', at);
      return false;
    }
    const fields = [...new Set(doc.candidates.map((candidate) => REQUIRED_SOURCE[baseField(candidate.change.field)]))];
    const require = monitor.type === 'details' ? fields.filter((field): field is string => field !== undefined) : [];
    try {
      const job = await runner.start(
        monitor,
        'confirmation',
        { userId: monitor.createdBy, organizationId: monitor.organizationId },
        {
          targets: [doc.target],
          require,
          confirmationId: doc._id,
        },
      );
      await confirmations.markStarted(doc._id, job._id, at);
      return true;
    } catch (error) {
      await runner.recordFailure(monitor, error, at);
      await confirmations.markDecided(doc._id, 'not_started', at);
      return false;
    }
  }

  /** Decides the confirmations whose job has ended (and those whose decider died). @returns how many were decided. */
  async decideFinished(batch = 50): Promise<number> {
    const now = this.#clock.now();
    let decided = 0;
    for (const read of await this.#parts.confirmations.findIn('started', 'deciding', new Date(now.getTime() - CLAIM_LEASE_MS).toISOString(), batch)) {
      if (await this.#decideIfEnded(read)) decided += 1;
    }
    return decided;
  }

  /** A job ended: when it is a confirmation, decide now rather than at the next tick. */
  async onJobFinished(confirmationId: string): Promise<void> {
    const read = await this.#parts.confirmations.findById(confirmationId);
    if (read?.state === 'started') await this.#decideIfEnded(read);
  }

  async #decideIfEnded(read: ConfirmationDoc): Promise<boolean> {
    const { jobs, confirmations } = this.#parts;
    const job = read.jobId ? await jobs.getOwned(read.organizationId, read.jobId).catch(() => null) : null;
    if (job && !isTerminalJob(job.status)) return false;
    const claimed = await confirmations.claim(read, 'deciding', this.#clock.now().toISOString());
    if (!claimed) return false;
    const outcome = job ? await this.#decide(claimed, job) : 'unconfirmed';
    await confirmations.markDecided(claimed._id, outcome, this.#clock.now().toISOString());
    return true;
  }

  async #decide(doc: ConfirmationDoc, job: JobDoc): Promise<'confirmed' | 'unconfirmed'> {
    const target = job.targets[0];
    // A blocked, failed, cancelled or partial re-crawl says nothing about the change.
    if (target?.status !== 'success' || target.uncharged !== undefined) return 'unconfirmed';
    const monitor = await this.#parts.monitors.findById(doc.monitorId);
    if (!monitor) return 'unconfirmed';
    const records: ResultRecord[] = [];
    for await (const batch of this.#parts.results.items(job._id)) records.push(...batch);
    const observed = doc.observed.flatMap((report) => report.changes);
    const current = new Set(monitor.rules.map(ruleKey));
    let fired = false;
    for (const candidate of doc.candidates) {
      // A rule edited or removed since the run no longer speaks for the monitor.
      if (!current.has(ruleKey(candidate.rule))) continue;
      const shown = this.#refound(candidate.change, observed, records, job);
      if (!shown || !ruleFires(candidate.rule, candidate.change.previous, shown.current)) continue;
      const firing: Firing = { ...candidate, target: doc.target };
      const event = await this.#parts.alerts.fire(monitor, firing, { shown, confirmedBy: { jobId: job._id, at: this.#clock.now().toISOString() } });
      if (event) fired = true;
    }
    this.#logger.debug({ monitorId: monitor._id, confirmationJobId: job._id, fired }, 'monitor confirmation decided');
    return fired ? 'confirmed' : 'unconfirmed';
  }

  /**
   * The value the re-crawl found for the change's subject and field: its own change when history
   * reported one; else, when the page showed the subject, the value is as the run saw it; a
   * keyword's ASIN the page no longer showed is no longer ranked there (null); a product the page
   * did not show is unknown (undefined).
   */
  #refound(change: ObservedChange, observed: readonly ObservedChange[], records: readonly ResultRecord[], job: JobDoc): ObservedChange | undefined {
    const again = observed.filter((candidate) => candidate.jobId === job._id && sameSubjectField(candidate, change)).at(-1);
    if (again) return again;
    if (records.some((record) => record.asin === change.subject.asin)) return change;
    if (change.subject.kind === 'product') return undefined;
    return { ...change, current: null, observedAt: job.completedAt ?? job.updatedAt, jobId: job._id, resultId: `${job._id}:0` };
  }
}
