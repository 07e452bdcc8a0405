import { randomInt } from 'node:crypto';
import type { ReferralStats } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import type { Accounts } from '../accounts/accounts.ts';
import type { CreditLedger } from '../ledger/credit-ledger.ts';

export interface ReferralCodeDoc {
  _id: string;
  userId: string;
  organizationId: string;
  clicks: number;
  signups: number;
  lastClickAt?: string;
  createdAt: string;
  [key: string]: unknown;
}

/** No 0/O or 1/I: codes are read aloud and typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

function randomCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Codes are case-insensitive on input. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export interface ReferralsOptions {
  store: DocumentStore;
  clock: Clock;
  accounts: Accounts;
  ledger: CreditLedger;
  rewardCredits: number;
}

/**
 * Referral codes (one per user), clicks, signups and the reward. The reward rule: when an
 * organization that registered with a code completes its first job with at least one successful
 * target, the referrer's organization receives REFERRAL_REWARD_CREDITS, once (ledger key
 * `referral:<referred organization>`). Self-referral (same organization) is ignored.
 */
export class Referrals {
  readonly #codes: Collection<ReferralCodeDoc>;
  readonly #options: ReferralsOptions;

  constructor(options: ReferralsOptions) {
    this.#codes = options.store.collection<ReferralCodeDoc>('referral_codes');
    this.#options = options;
  }

  async init(): Promise<void> {
    await this.#codes.ensureIndexes([{ keys: { userId: 1 }, unique: true, name: 'one_code_per_user' }]);
  }

  /** The user's code, created on first request. */
  async codeFor(userId: string, organizationId: string): Promise<ReferralCodeDoc> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const existing = await this.#codes.findOne({ userId });
      if (existing) return existing;
      const doc: ReferralCodeDoc = { _id: randomCode(), userId, organizationId, clicks: 0, signups: 0, createdAt: this.#options.clock.now().toISOString() };
      try {
        return await this.#codes.insertOne(doc);
      } catch (error) {
        // A code collision or a concurrent first request by the same user: look again.
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
    throw errors.unavailable('Could not allocate a referral code, try again');
  }

  async click(code: string): Promise<void> {
    const updated = await this.#codes.updateOne(
      { _id: normalizeCode(code) },
      { $inc: { clicks: 1 }, $set: { lastClickAt: this.#options.clock.now().toISOString() } },
    );
    if (!updated) throw errors.notFound('Referral code');
  }

  /**
   * Links a new organization to the code's owner, once. Unknown codes and self-referrals are
   * ignored (registration never fails on a referral code). @returns whether a link was made.
   */
  async linkSignup(organizationId: string, rawCode: string): Promise<boolean> {
    const code = await this.#codes.findOne({ _id: normalizeCode(rawCode) });
    if (!code || code.organizationId === organizationId) return false;
    const linked = await this.#options.accounts.collection.updateOne(
      { _id: organizationId, referredByOrganizationId: { $exists: false } },
      { $set: { referralCode: code._id, referredByOrganizationId: code.organizationId, referredByUserId: code.userId } },
    );
    if (!linked) return false;
    await this.#codes.updateOne({ _id: code._id }, { $inc: { signups: 1 } });
    return true;
  }

  /** Called after a settlement that captured credits: the referred organization's first completed job. */
  async rewardFirstJob(organizationId: string): Promise<boolean> {
    const account = await this.#options.accounts.find(organizationId);
    if (!account?.referredByOrganizationId || account.referralRewardedAt || this.#options.rewardCredits <= 0) return false;
    await this.#options.accounts.ensure(account.referredByOrganizationId);
    const { entry } = await this.#options.ledger.record({
      organizationId: account.referredByOrganizationId,
      key: `referral:${organizationId}`,
      kind: 'referral_reward',
      amount: this.#options.rewardCredits,
      reason: `Referral reward: organization ${organizationId} completed its first job`,
    });
    const marked = await this.#options.accounts.collection.updateOne(
      { _id: organizationId, referralRewardedAt: { $exists: false } },
      { $set: { referralRewardedAt: entry.createdAt, referralRewardCredits: entry.amount } },
    );
    return marked !== null;
  }

  async stats(userId: string, organizationId: string): Promise<ReferralStats> {
    const code = await this.codeFor(userId, organizationId);
    const rewarded = await this.#options.accounts.collection.find({ referralCode: code._id, referralRewardedAt: { $exists: true } });
    return {
      code: code._id,
      clicks: code.clicks,
      signups: code.signups,
      rewards: rewarded.length,
      rewardCredits: rewarded.reduce((sum, account) => sum + (account.referralRewardCredits ?? 0), 0),
    };
  }
}
