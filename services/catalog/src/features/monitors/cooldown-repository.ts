import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '@crawl/storage';

export const MONITOR_COOLDOWNS_COLLECTION = 'monitor_cooldowns';

/** When a rule last fired for one subject's field (event-keys.ts `cooldownId`), and with which event. */
export interface CooldownDoc extends Document {
  monitorId: string;
  firedAt: string;
  eventId: string;
}

/** The cooldowns of monitors' rules: taken atomically, so two runs at once never both fire within one. */
export class CooldownRepository {
  readonly #cooldowns: Collection<CooldownDoc>;

  constructor(store: DocumentStore) {
    this.#cooldowns = store.collection<CooldownDoc>(MONITOR_COOLDOWNS_COLLECTION);
  }

  /** A monitor's cooldowns are removed with it. */
  async init(): Promise<void> {
    await this.#cooldowns.ensureIndexes([{ keys: { monitorId: 1 }, name: 'monitor' }]);
  }

  /**
   * Lets `eventId` fire at `at` when the rule has been quiet since `quietSince` (it last fired at
   * or before then, or never), or when the last firing was this very event (the same firing
   * applied again after a failure part-way). @returns false while the cooldown runs.
   */
  async take(id: string, monitorId: string, eventId: string, at: string, quietSince: string): Promise<boolean> {
    const taken = await this.#cooldowns.updateOne({ _id: id, $or: [{ firedAt: { $lte: quietSince } }, { eventId }] }, { $set: { firedAt: at, eventId } });
    if (taken) return true;
    try {
      await this.#cooldowns.insertOne({ _id: id, monitorId, firedAt: at, eventId });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Whether the rule fired after `quietSince` (a confirmation is not started for a rule that could not fire). */
  async isRunning(id: string, quietSince: string): Promise<boolean> {
    return (await this.#cooldowns.count({ _id: id, firedAt: { $gt: quietSince } })) > 0;
  }

  async removeForMonitor(monitorId: string): Promise<void> {
    await this.#cooldowns.deleteMany({ monitorId });
  }
}
