import type { FullBalance, TargetCharges, Usage, UsageLimits, UsageUsed } from '@crawl/contracts';

/** An organization's month against its plan: what /usage and the admin's usage page show. */
export interface UsageReport {
  organizationId: string;
  month: string;
  resetsAt: string;
  limits: UsageLimits;
  used: UsageUsed;
  remaining: UsageLimits;
  balance: FullBalance;
  /** The month's settled targets, charged and not, from its ledger entries. */
  charges: TargetCharges;
}

/** The report as GET /usage answers it. */
export function toUsage(report: UsageReport): Usage {
  return {
    limits: report.limits,
    used: report.used,
    remaining: report.remaining,
    credits: { available: report.balance.available, reserved: report.balance.reserved },
    charges: report.charges,
    month: report.month,
    resetsAt: report.resetsAt,
  };
}
