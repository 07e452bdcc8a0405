import type { UsageLimits } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import type { CreditLedger } from '../ledger/index.ts';
import type { BillingResources } from '../shared/index.ts';
import type { AccountDoc, AccountRepository, Referrer } from './account-repository.ts';
import { effectiveLimits } from './plan-limits.ts';

export type { AccountDoc } from './account-repository.ts';

export interface AccountsOptions {
  repository: AccountRepository;
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
  readonly #repository: AccountRepository;
  readonly #clock: Clock;
  readonly #options: AccountsOptions;
  /** Organizations already opened by this process: only saves round trips, never decides. */
  readonly #opened = new Set<string>();

  constructor(resources: BillingResources, options: AccountsOptions) {
    this.#repository = options.repository;
    this.#clock = resources.clock;
    this.#options = options;
  }

  /** Opens the account if needed (balance, signup bonus) and returns it. */
  async ensure(organizationId: string, ownerUserId?: string): Promise<AccountDoc> {
    if (this.#opened.has(organizationId)) {
      const known = await this.#repository.findAccount(organizationId);
      if (known) return known;
    }
    let account = await this.#repository.openAccount(organizationId, this.#clock.now().toISOString(), ownerUserId);
    if (ownerUserId && !account.ownerUserId) {
      account = (await this.#repository.setOwnerIfMissing(organizationId, ownerUserId)) ?? account;
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
    return this.#repository.findAccount(organizationId);
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
    const updated = await this.#repository.setLimits(organizationId, patch, this.#clock.now().toISOString());
    if (!updated) throw errors.notFound('Organization');
    return updated;
  }

  /** Links the organization to the code that referred it, once. @returns null when it was linked before (or is unknown). */
  linkReferrer(organizationId: string, referrer: Referrer): Promise<AccountDoc | null> {
    return this.#repository.linkReferrer(organizationId, referrer);
  }

  /** Notes on the referred account that its referrer was rewarded, once. @returns null when noted before. */
  markReferralRewarded(organizationId: string, at: string, credits: number): Promise<AccountDoc | null> {
    return this.#repository.markReferralRewarded(organizationId, at, credits);
  }

  /** Every organization a code referred; only for a one-time adoption of old reward figures. */
  referredBy(code: string): Promise<AccountDoc[]> {
    return this.#repository.referredBy(code);
  }
}
