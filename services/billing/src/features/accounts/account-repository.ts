import type { UsageLimits } from '@crawl/contracts';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import type { LimitOverrides } from './plan-limits.ts';

export interface AccountDoc {
  _id: string;
  ownerUserId?: string;
  /** The organization's own monthly limits (its plan); missing keys use the defaults. */
  limits?: LimitOverrides;
  referralCode?: string;
  referredByOrganizationId?: string;
  referredByUserId?: string;
  referralRewardedAt?: string;
  referralRewardCredits?: number;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

/** A `$set` of an account's own limits: each limit by its path (`limits.jobsPerMonth`), and the update time. */
type LimitsSet = Pick<AccountDoc, 'updatedAt'> & { [Limit in keyof UsageLimits as `limits.${Limit}`]?: number };

/** Who referred an organization: the code and its owner. */
export interface Referrer {
  code: string;
  organizationId: string;
  userId: string;
}

/** Storage of billing's accounts (`_id` = organization). */
export class AccountRepository {
  readonly #accounts: Collection<AccountDoc>;

  constructor(store: DocumentStore) {
    this.#accounts = store.collection<AccountDoc>('accounts');
  }

  async init(): Promise<void> {
    await this.#accounts.ensureIndexes([{ keys: { referralCode: 1 }, name: 'referral_code' }]);
  }

  findAccount(organizationId: string): Promise<AccountDoc | null> {
    return this.#accounts.findOne({ _id: organizationId });
  }

  /** Creates the account if missing (with its owner when known) and returns it; safe to race. */
  async openAccount(organizationId: string, now: string, ownerUserId?: string): Promise<AccountDoc> {
    try {
      const opened = await this.#accounts.updateOne(
        { _id: organizationId },
        { $setOnInsert: { createdAt: now, updatedAt: now, ...(ownerUserId ? { ownerUserId } : {}) } },
        { upsert: true },
      );
      if (opened) return opened;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const existing = await this.findAccount(organizationId);
    if (!existing) throw new Error(`account ${organizationId} vanished`);
    return existing;
  }

  /** Records the owner of an account opened lazily (before registration told who owns it). */
  setOwnerIfMissing(organizationId: string, ownerUserId: string): Promise<AccountDoc | null> {
    return this.#accounts.updateOne({ _id: organizationId, ownerUserId: { $exists: false } }, { $set: { ownerUserId } });
  }

  /** Sets (number) or clears (null) limits. @returns null for an unknown organization. */
  setLimits(organizationId: string, patch: Partial<Record<keyof UsageLimits, number | null>>, now: string): Promise<AccountDoc | null> {
    const $set: LimitsSet = { updatedAt: now };
    const $unset: Record<string, true> = {};
    for (const limit of Object.keys(patch) as Array<keyof UsageLimits>) {
      const value = patch[limit];
      if (value === null) $unset[`limits.${limit}`] = true;
      else if (value !== undefined) $set[`limits.${limit}` as const] = value;
    }
    return this.#accounts.updateOne({ _id: organizationId }, { $set, $unset });
  }

  /** Links the organization to the code that referred it, once. @returns null when it was linked before (or is unknown). */
  linkReferrer(organizationId: string, referrer: Referrer): Promise<AccountDoc | null> {
    return this.#accounts.updateOne(
      { _id: organizationId, referredByOrganizationId: { $exists: false } },
      { $set: { referralCode: referrer.code, referredByOrganizationId: referrer.organizationId, referredByUserId: referrer.userId } },
    );
  }

  /** Notes on the referred account that its referrer was rewarded, once. @returns null when noted before. */
  markReferralRewarded(organizationId: string, at: string, credits: number): Promise<AccountDoc | null> {
    return this.#accounts.updateOne(
      { _id: organizationId, referralRewardedAt: { $exists: false } },
      { $set: { referralRewardedAt: at, referralRewardCredits: credits } },
    );
  }

  /** Every organization a code referred (index `referral_code`); only for a one-time adoption of old figures. */
  referredBy(code: string): Promise<AccountDoc[]> {
    return this.#accounts.find({ referralCode: code });
  }
}
