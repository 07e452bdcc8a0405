import type { UsageLimits } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@crawl/storage';
import type { CreditLedger } from '../ledger/credit-ledger.ts';
import { effectiveLimits, type LimitOverrides } from '../quotas/limits.ts';

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

export interface AccountsOptions {
  store: DocumentStore;
  clock: Clock;
  ledger: CreditLedger;
  signupBonus: number;
  defaultLimits: UsageLimits;
}

/**
 * Billing's view of an organization: its balance, plan limits and referral link. Opened by auth
 * at registration and, so that a failed call never loses the signup bonus, lazily by every
 * billing operation that meets an organization for the first time. Opening is idempotent: the
 * bonus is a ledger entry keyed `signup:<organizationId>`.
 */
export class Accounts {
  readonly #accounts: Collection<AccountDoc>;
  readonly #options: AccountsOptions;
  /** Organizations already opened by this process: only saves round trips, never decides. */
  readonly #opened = new Set<string>();

  constructor(options: AccountsOptions) {
    this.#accounts = options.store.collection<AccountDoc>('accounts');
    this.#options = options;
  }

  get collection(): Collection<AccountDoc> {
    return this.#accounts;
  }

  async init(): Promise<void> {
    await this.#accounts.ensureIndexes([{ keys: { referralCode: 1 }, name: 'referral_code' }]);
  }

  /** Opens the account if needed (balance, signup bonus) and returns it. */
  async ensure(organizationId: string, ownerUserId?: string): Promise<AccountDoc> {
    if (this.#opened.has(organizationId)) {
      const known = await this.#accounts.findOne({ _id: organizationId });
      if (known) return known;
    }
    const now = this.#options.clock.now().toISOString();
    let account: AccountDoc | null = null;
    try {
      account = await this.#accounts.updateOne(
        { _id: organizationId },
        { $setOnInsert: { createdAt: now, updatedAt: now, ...(ownerUserId ? { ownerUserId } : {}) } },
        { upsert: true },
      );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    account ??= await this.#accounts.findOne({ _id: organizationId });
    if (!account) throw new Error(`account ${organizationId} vanished`);
    if (ownerUserId && !account.ownerUserId) {
      account = (await this.#accounts.updateOne({ _id: organizationId, ownerUserId: { $exists: false } }, { $set: { ownerUserId } })) ?? account;
    }
    await this.#options.ledger.open(organizationId);
    if (this.#options.signupBonus > 0) {
      await this.#options.ledger.record({
        organizationId,
        key: `signup:${organizationId}`,
        kind: 'signup_bonus',
        amount: this.#options.signupBonus,
        reason: 'Signup bonus',
      });
    }
    this.#opened.add(organizationId);
    return account;
  }

  async find(organizationId: string): Promise<AccountDoc | null> {
    return this.#accounts.findOne({ _id: organizationId });
  }

  /** For admin routes: an organization billing has never seen is a 404, not a new account. */
  async require(organizationId: string): Promise<AccountDoc> {
    const account = await this.find(organizationId);
    if (!account) throw errors.notFound('Organization');
    return account;
  }

  limitsOf(account: AccountDoc | null): UsageLimits {
    return effectiveLimits(this.#options.defaultLimits, account?.limits);
  }

  /** Sets (number) or clears (null) the organization's own limits. */
  async setLimits(organizationId: string, patch: Partial<Record<keyof UsageLimits, number | null>>): Promise<AccountDoc> {
    const $set: Record<string, unknown> = { updatedAt: this.#options.clock.now().toISOString() };
    const $unset: Record<string, true> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) $unset[`limits.${key}`] = true;
      else if (value !== undefined) $set[`limits.${key}`] = value;
    }
    const updated = await this.#accounts.updateOne({ _id: organizationId }, { $set, $unset });
    if (!updated) throw errors.notFound('Organization');
    return updated;
  }
}
