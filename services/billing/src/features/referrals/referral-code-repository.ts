import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';

export interface ReferralCodeDoc {
  _id: string;
  userId: string;
  organizationId: string;
  clicks: number;
  signups: number;
  lastClickAt?: string;
  /**
   * Rewards granted before rewards were tallied on the referrer's balance, counted once from the
   * ledger when the code's stats were first read afterwards (that set never grows).
   */
  legacyRewards?: { rewards: number; credits: number };
  createdAt: string;
  [key: string]: unknown;
}

/** Storage of referral codes (`_id` = the code, one per user). */
export class ReferralCodeRepository {
  readonly #codes: Collection<ReferralCodeDoc>;

  constructor(store: DocumentStore) {
    this.#codes = store.collection<ReferralCodeDoc>('referral_codes');
  }

  async init(): Promise<void> {
    await this.#codes.ensureIndexes([{ keys: { userId: 1 }, unique: true, name: 'one_code_per_user' }]);
  }

  findCode(code: string): Promise<ReferralCodeDoc | null> {
    return this.#codes.findOne({ _id: code });
  }

  findCodeOfUser(userId: string): Promise<ReferralCodeDoc | null> {
    return this.#codes.findOne({ userId });
  }

  /** @returns the code, or null when the code or the user's code already exists (nothing written). */
  async insertCode(doc: ReferralCodeDoc): Promise<ReferralCodeDoc | null> {
    try {
      return await this.#codes.insertOne(doc);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
  }

  /** @returns null for an unknown code. */
  recordClick(code: string, at: string): Promise<ReferralCodeDoc | null> {
    return this.#codes.updateOne({ _id: code }, { $inc: { clicks: 1 }, $set: { lastClickAt: at } });
  }

  async countSignup(code: string): Promise<void> {
    await this.#codes.updateOne({ _id: code }, { $inc: { signups: 1 } });
  }

  /** Stores the adopted legacy figures once; a racing adoption computed the same figures. */
  async setLegacyRewards(code: string, figures: { rewards: number; credits: number }): Promise<void> {
    await this.#codes.updateOne({ _id: code, legacyRewards: { $exists: false } }, { $set: { legacyRewards: figures } });
  }
}
