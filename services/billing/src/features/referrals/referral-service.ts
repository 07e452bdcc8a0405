import { randomInt } from 'node:crypto';
import type { ReferralStats } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import type { Accounts } from '../accounts/index.ts';
import type { CreditLedger } from '../ledger/index.ts';
import type { BillingResources } from '../shared/index.ts';
import type { ReferralCodeDoc, ReferralCodeRepository } from './referral-code-repository.ts';

export type { ReferralCodeDoc } from './referral-code-repository.ts';

/** Names of the figures tallied on the referrer's balance with each reward entry. */
export const rewardsTally = (code: string) => `referralRewards_${code}`;
export const rewardCreditsTally = (code: string) => `referralCredits_${code}`;

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
  codes: ReferralCodeRepository;
  accounts: Accounts;
  ledger: CreditLedger;
  rewardCredits: number;
  /** Where clients reach the API; empty or unset: the address of each request (see referralLinks). */
  publicBaseUrl?: string;
}

/**
 * Referral codes (one per user), clicks, signups and the reward. The reward rule: when an
 * organization that registered with a code completes its first purchase of a paid package
 * (price above zero, confirmed by the payment provider), the referrer's organization receives
 * REFERRAL_REWARD_CREDITS, once (ledger key `referral:<referred organization>`). A new account and
 * its free signup credits earn nothing: farming the reward costs a real purchase per account
 * (the sandbox provider, which is refused in production, counts in development so this is
 * testable). Self-referral (same organization) is ignored.
 */
export class Referrals {
  readonly #codes: ReferralCodeRepository;
  readonly #clock: Clock;
  readonly #options: ReferralsOptions;

  constructor(resources: BillingResources, options: ReferralsOptions) {
    this.#codes = options.codes;
    this.#clock = resources.clock;
    this.#options = options;
  }

  /** The configured public base URL, if any. */
  get publicBaseUrl(): string | undefined {
    return this.#options.publicBaseUrl || undefined;
  }

  /** The user's code, created on first request. */
  async codeFor(userId: string, organizationId: string): Promise<ReferralCodeDoc> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const existing = await this.#codes.findCodeOfUser(userId);
      if (existing) return existing;
      // null: a code collision or a concurrent first request by the same user: look again.
      const created = await this.#codes.insertCode({ _id: randomCode(), userId, organizationId, clicks: 0, signups: 0, createdAt: this.#now() });
      if (created) return created;
    }
    throw errors.unavailable('Could not allocate a referral code, try again');
  }

  async click(code: string): Promise<void> {
    const updated = await this.#codes.recordClick(normalizeCode(code), this.#now());
    if (!updated) throw errors.notFound('Referral code');
  }

  /**
   * Links a new organization to the code's owner, once. Unknown codes and self-referrals are
   * ignored (registration never fails on a referral code). @returns whether a link was made.
   */
  async linkSignup(organizationId: string, rawCode: string): Promise<boolean> {
    const code = await this.#codes.findCode(normalizeCode(rawCode));
    if (!code || code.organizationId === organizationId) return false;
    const linked = await this.#options.accounts.linkReferrer(organizationId, {
      code: code._id,
      organizationId: code.organizationId,
      userId: code.userId,
    });
    if (!linked) return false;
    await this.#codes.countSignup(code._id);
    return true;
  }

  /**
   * Called after each fulfilled paid order; only the referred organization's first one rewards.
   * The reward entry also tallies the reward per code on the referrer's balance (exactly once,
   * with the entry), which is what the stats read.
   */
  async rewardFirstPurchase(organizationId: string): Promise<boolean> {
    const account = await this.#options.accounts.find(organizationId);
    if (!account?.referredByOrganizationId || account.referralRewardedAt || this.#options.rewardCredits <= 0) return false;
    await this.#options.accounts.ensure(account.referredByOrganizationId);
    const amount = this.#options.rewardCredits;
    const { entry } = await this.#options.ledger.record({
      organizationId: account.referredByOrganizationId,
      key: `referral:${organizationId}`,
      kind: 'referral_reward',
      amount,
      reason: `Referral reward: organization ${organizationId} completed its first paid purchase`,
      ...(account.referralCode ? { tallies: { [rewardsTally(account.referralCode)]: 1, [rewardCreditsTally(account.referralCode)]: amount } } : {}),
    });
    return (await this.#options.accounts.markReferralRewarded(organizationId, entry.createdAt, entry.amount)) !== null;
  }

  /** Clicks and signups from the code, rewards from the referrer's balance: a few reads by key. */
  async stats(userId: string, organizationId: string): Promise<ReferralStats> {
    const code = await this.codeFor(userId, organizationId);
    const legacy = code.legacyRewards ?? (await this.#adoptLegacyRewards(code));
    const tallies = (await this.#options.ledger.rollForward(code.organizationId))?.tallies ?? {};
    return {
      code: code._id,
      clicks: code.clicks,
      signups: code.signups,
      rewards: legacy.rewards + (tallies[rewardsTally(code._id)] ?? 0),
      rewardCredits: legacy.credits + (tallies[rewardCreditsTally(code._id)] ?? 0),
    };
  }

  /**
   * Rewards granted before they were tallied: reward entries without tallies of the
   * organizations this code referred. Read once per code; no such entry is written any more.
   */
  async #adoptLegacyRewards(code: ReferralCodeDoc): Promise<{ rewards: number; credits: number }> {
    const figures = { rewards: 0, credits: 0 };
    for (const referred of await this.#options.accounts.referredBy(code._id)) {
      const entry = await this.#options.ledger.findByKey(`referral:${referred._id}`);
      if (entry && !entry.tallies) {
        figures.rewards += 1;
        figures.credits += entry.amount;
      }
    }
    await this.#codes.setLegacyRewards(code._id, figures);
    return figures;
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}
