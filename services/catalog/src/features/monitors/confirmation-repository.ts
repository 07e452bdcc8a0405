import type { MonitorRule, ObservedChange } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export const MONITOR_CONFIRMATIONS_COLLECTION = 'monitor_confirmations';

/** A rule that fired for a change and waits for the re-crawl before it counts. */
export interface ConfirmationCandidate {
  ruleIndex: number;
  rule: MonitorRule;
  change: ObservedChange;
}

/** The changes one report of the confirmation job brought (an object: MongoDB-wire stores such as FerretDB keep no nested arrays). */
export interface ObservedReport {
  changes: ObservedChange[];
}

/**
 * `pending`: asked for by a run's report; `starting`: a runner is creating the job; `started`:
 * the job is out; `deciding`: a runner is deciding on its outcome; `decided`: done.
 */
export type ConfirmationState = 'pending' | 'starting' | 'started' | 'deciding' | 'decided';

/** How a confirmation ended: its change still there (events fired), gone, or no job could be made. */
export type ConfirmationOutcome = 'confirmed' | 'unconfirmed' | 'not_started';

/** One re-crawl of one target of a run, for the rules that fired there with `confirm`. */
export interface ConfirmationDoc extends Document {
  organizationId: string;
  projectId: string;
  monitorId: string;
  /** The run whose report asked for it, and the target there. */
  sourceJobId: string;
  targetIndex: number;
  /** The target to crawl again, as the monitor names it (its ASIN or keyword). */
  target: string;
  candidates: ConfirmationCandidate[];
  state: ConfirmationState;
  /** The confirmation job, once created. */
  jobId: string | null;
  /** The changes the confirmation job's report brought, one entry per report applied (a retried report may add the same twice). */
  observed: ObservedReport[];
  outcome: ConfirmationOutcome | null;
  claimedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Confirmations: asked for once per run and target, then moved along by conditional updates so two runners never both act. */
export class ConfirmationRepository {
  readonly #confirmations: Collection<ConfirmationDoc>;

  constructor(store: DocumentStore) {
    this.#confirmations = store.collection<ConfirmationDoc>(MONITOR_CONFIRMATIONS_COLLECTION);
  }

  /** The runner's scans by state (oldest first) and the removal with a monitor. */
  async init(): Promise<void> {
    await this.#confirmations.ensureIndexes([
      { keys: { state: 1, createdAt: 1 }, name: 'state_created' },
      { keys: { monitorId: 1 }, name: 'monitor' },
    ]);
  }

  /** @returns false when the run's target already asked (the same report applied again). */
  async insertOnce(doc: ConfirmationDoc): Promise<boolean> {
    try {
      await this.#confirmations.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  findById(id: string): Promise<ConfirmationDoc | null> {
    return this.#confirmations.findOne({ _id: id });
  }

  /** Confirmations in `state`, and those a runner claimed from there (`next`) before `staleBefore` and never finished, oldest first. */
  findIn(state: 'pending' | 'started', next: 'starting' | 'deciding', staleBefore: string, limit: number): Promise<ConfirmationDoc[]> {
    return this.#confirmations.find({ $or: [{ state }, { state: next, claimedAt: { $lte: staleBefore } }] }, { sort: { createdAt: 1 }, limit });
  }

  /** Moves a confirmation on from the state it was read in. @returns it, or null when another runner moved it first. */
  claim(read: Pick<ConfirmationDoc, '_id' | 'state' | 'claimedAt'>, next: 'starting' | 'deciding', at: string): Promise<ConfirmationDoc | null> {
    return this.#confirmations.updateOne(
      { _id: read._id, state: read.state, claimedAt: read.claimedAt },
      { $set: { state: next, claimedAt: at, updatedAt: at } },
    );
  }

  async markStarted(id: string, jobId: string, at: string): Promise<void> {
    await this.#confirmations.updateOne({ _id: id, state: 'starting' }, { $set: { state: 'started', jobId, claimedAt: null, updatedAt: at } });
  }

  async markDecided(id: string, outcome: ConfirmationOutcome, at: string): Promise<void> {
    await this.#confirmations.updateOne({ _id: id }, { $set: { state: 'decided', outcome, claimedAt: null, updatedAt: at } });
  }

  async addObserved(id: string, changes: readonly ObservedChange[]): Promise<void> {
    const report: ObservedReport = { changes: [...changes] };
    await this.#confirmations.updateOne({ _id: id }, { $push: { observed: report } });
  }

  async removeForMonitor(monitorId: string): Promise<void> {
    await this.#confirmations.deleteMany({ monitorId });
  }
}
