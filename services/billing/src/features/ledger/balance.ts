import type { FullBalance, LedgerEntryKind } from '@crawl/contracts';

/** How one ledger entry moves the four balance figures. */
export type BalanceDelta = FullBalance;

export const ZERO_BALANCE: FullBalance = { available: 0, reserved: 0, spent: 0, granted: 0 };

/**
 * Every kind moves credits between the figures so that available + reserved + spent = granted
 * holds before and after: grants and revokes change `granted` and `available` together.
 */
export function deltaFor(kind: LedgerEntryKind, amount: number): BalanceDelta {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`A ledger amount must be a positive integer (got ${amount})`);
  switch (kind) {
    case 'signup_bonus':
    case 'purchase':
    case 'admin_grant':
    case 'referral_reward':
      return { available: amount, reserved: 0, spent: 0, granted: amount };
    case 'admin_revoke':
      return { available: -amount, reserved: 0, spent: 0, granted: -amount };
    case 'reservation':
      return { available: -amount, reserved: amount, spent: 0, granted: 0 };
    case 'capture':
      return { available: 0, reserved: -amount, spent: amount, granted: 0 };
    case 'release':
      return { available: amount, reserved: -amount, spent: 0, granted: 0 };
  }
}

export function applyDelta(balance: FullBalance, delta: BalanceDelta): FullBalance {
  return {
    available: balance.available + delta.available,
    reserved: balance.reserved + delta.reserved,
    spent: balance.spent + delta.spent,
    granted: balance.granted + delta.granted,
  };
}

/** Why a delta may not be applied to a balance, or null when it may. */
export function refusal(balance: FullBalance, delta: BalanceDelta): 'insufficient_available' | 'insufficient_reserved' | null {
  const next = applyDelta(balance, delta);
  if (next.available < 0) return 'insufficient_available';
  if (next.reserved < 0 || next.spent < 0 || next.granted < 0) return 'insufficient_reserved';
  return null;
}

/** The ledger's invariant; returns the problems, empty when the balance is sound. */
export function invariantProblems(balance: FullBalance): string[] {
  const problems: string[] = [];
  for (const key of ['available', 'reserved', 'spent', 'granted'] as const) {
    if (!Number.isSafeInteger(balance[key]) || balance[key] < 0) problems.push(`${key} is ${balance[key]}`);
  }
  if (balance.available + balance.reserved + balance.spent !== balance.granted) {
    problems.push(`available ${balance.available} + reserved ${balance.reserved} + spent ${balance.spent} != granted ${balance.granted}`);
  }
  return problems;
}

/** The entry would take a figure below zero; nothing was written. */
export class LedgerRefusal extends Error {
  readonly why: 'insufficient_available' | 'insufficient_reserved';
  readonly balance: FullBalance;
  readonly amount: number;
  constructor(why: LedgerRefusal['why'], balance: FullBalance, amount: number) {
    super(`Ledger refused ${amount} credits: ${why}`);
    this.name = 'LedgerRefusal';
    this.why = why;
    this.balance = balance;
    this.amount = amount;
  }
}
