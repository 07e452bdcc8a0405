import type { DailyCredits, FullBalance, RecordAuditBody, TargetCharges, Usage, UsageLimits, UsageUsed } from '@crawl/contracts';
import { noMetrics, type CreditMetrics } from '@crawl/metrics';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/modules';
import type { DocumentStore } from '@crawl/storage';
import type { BillingConfig } from './config.ts';
import { Accounts } from './features/accounts/index.ts';
import { CreditLedger, LedgerRefusal, monthCharges, toBalance, type LedgerEntryDoc } from './features/ledger/index.ts';
import { Checkout, parsePackages, paymentProviderFor, type PaymentProvider } from './features/packages/index.ts';
import { monthKey, nextMonthStart, remainingOf, UsageCounters } from './features/quotas/index.ts';
import { Reconciler, type JobStateLookup } from './features/reconciler/index.ts';
import { Referrals } from './features/referrals/index.ts';
import { Reservations } from './features/reservations/index.ts';
import { bestEffortAudit, type BillingResources, type Logger } from './features/shared/index.ts';
import { ensureBillingIndexes, type BillingRepositories } from './repositories.ts';

export interface BillingOptions {
  store: DocumentStore;
  repositories: BillingRepositories;
  clock: Clock;
  config: BillingConfig;
  logger: Logger;
  /** Credits reserved, captured and refunded; default none. */
  metrics?: CreditMetrics;
  /** Records an audit event in catalog's log; failures are logged, never raised. */
  audit?: (event: RecordAuditBody) => Promise<void>;
  /** Catalog's job-state lookup for the reconciler; omitted when catalog is unreachable. */
  jobState?: JobStateLookup;
  provider?: PaymentProvider;
}

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

/** The billing domain assembled over one store and clock: what the routes and the tests use. */
export class Billing {
  readonly ledger: CreditLedger;
  readonly usage: UsageCounters;
  readonly accounts: Accounts;
  readonly referrals: Referrals;
  readonly reservations: Reservations;
  readonly checkout: Checkout;
  readonly reconciler: Reconciler;
  /** Best effort: records in catalog's audit log, logs and carries on when that fails. */
  readonly audit: (event: RecordAuditBody) => Promise<void>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #repositories: BillingRepositories;

  constructor(options: BillingOptions) {
    const { store, clock, config, logger, repositories } = options;
    const resources: BillingResources = { store, clock, logger, metrics: options.metrics ?? noMetrics };
    this.#clock = clock;
    this.#logger = logger;
    this.#repositories = repositories;
    this.ledger = new CreditLedger(resources, { repository: repositories.ledger });
    this.usage = new UsageCounters(resources, { repository: repositories.usage });
    this.accounts = new Accounts(resources, {
      repository: repositories.accounts,
      ledger: this.ledger,
      signupBonus: config.SIGNUP_BONUS_CREDITS,
      defaultLimits: {
        jobsPerMonth: config.LIMIT_JOBS_PER_MONTH,
        targetsPerMonth: config.LIMIT_TARGETS_PER_MONTH,
        exportsPerMonth: config.LIMIT_EXPORTS_PER_MONTH,
      },
    });
    this.referrals = new Referrals(resources, {
      codes: repositories.referralCodes,
      accounts: this.accounts,
      ledger: this.ledger,
      rewardCredits: config.REFERRAL_REWARD_CREDITS,
      publicBaseUrl: config.PUBLIC_BASE_URL,
    });
    this.reservations = new Reservations(resources, {
      repository: repositories.reservations,
      ledger: this.ledger,
      usage: this.usage,
      accounts: this.accounts,
    });
    this.audit = bestEffortAudit(options.audit, logger);
    this.checkout = new Checkout(resources, {
      orders: repositories.orders,
      ledger: this.ledger,
      accounts: this.accounts,
      packages: parsePackages(config.CREDIT_PACKAGES),
      provider: options.provider ?? paymentProviderFor(config.PAYMENT_PROVIDER),
      audit: this.audit,
      onPaid: async (order) => {
        try {
          await this.referrals.rewardFirstPurchase(order.organizationId);
        } catch (error) {
          // Retried on the next fulfilment of a paid order of this organization; the reward key keeps it once.
          logger.warn({ err: error, organizationId: order.organizationId }, 'referral reward failed; retried on the next paid order');
        }
      },
    });
    this.reconciler = new Reconciler(resources, {
      ledger: this.ledger,
      usage: this.usage,
      reservations: this.reservations,
      ...(options.jobState ? { jobState: options.jobState } : {}),
      pendingTimeoutMs: config.RESERVATION_PENDING_TIMEOUT_MS,
      orphanAfterMs: config.RESERVATION_ORPHAN_AFTER_MS,
      maxHoldMs: config.RESERVATION_MAX_HOLD_MS,
    });
  }

  async init(): Promise<void> {
    await ensureBillingIndexes(this.#repositories);
  }

  /** Opens an account at registration (idempotent) and links the referrer when a code came along. */
  async openAccount(organizationId: string, ownerUserId: string, referralCode?: string): Promise<FullBalance> {
    await this.accounts.ensure(organizationId, ownerUserId);
    if (referralCode) {
      const linked = await this.referrals.linkSignup(organizationId, referralCode);
      if (!linked) this.#logger.info({ organizationId }, 'referral code not linked (unknown, self-referral or already linked)');
    }
    return this.ledger.balance(organizationId);
  }

  /** Credits spent and added per UTC day of `month` (`YYYY-MM`, the current month when absent). */
  dailyCredits(organizationId: string, month?: string): Promise<DailyCredits> {
    return this.ledger.daysOf(organizationId, month ?? monthKey(this.#clock.now()));
  }

  async usageReport(organizationId: string): Promise<UsageReport> {
    const account = await this.accounts.find(organizationId);
    const now = this.#clock.now();
    const month = monthKey(now);
    const limits = this.accounts.limitsOf(account);
    const used = await this.usage.used(organizationId, month);
    // From the month's ledger entries, as /usage/daily reads them: one range of the ledger's
    // index, never a scan of jobs.
    const charges = monthCharges(await this.ledger.daysOf(organizationId, month));
    return {
      organizationId,
      month,
      resetsAt: nextMonthStart(now).toISOString(),
      limits,
      used,
      remaining: remainingOf(limits, used),
      balance: await this.ledger.balance(organizationId),
      charges,
    };
  }

  toUsage(report: UsageReport): Usage {
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

  async consumeExport(organizationId: string): Promise<{ exportsThisMonth: number; exportsPerMonth: number }> {
    const account = await this.accounts.ensure(organizationId);
    const limits = this.accounts.limitsOf(account);
    const used = await this.usage.consumeExport(organizationId, monthKey(this.#clock.now()), limits);
    return { exportsThisMonth: used.exportsThisMonth, exportsPerMonth: limits.exportsPerMonth };
  }

  /** Admin grant or revoke; a revoke beyond the available credits is a 409. */
  async adjustCredits(input: {
    organizationId: string;
    type: 'grant' | 'revoke';
    amount: number;
    reason: string;
    actorUserId: string;
    operationId: string;
    requestId?: string;
  }): Promise<{ entry: LedgerEntryDoc; balance: FullBalance }> {
    await this.accounts.require(input.organizationId);
    let recorded: LedgerEntryDoc;
    try {
      recorded = (
        await this.ledger.record({
          organizationId: input.organizationId,
          key: `admin:${input.operationId}`,
          kind: input.type === 'grant' ? 'admin_grant' : 'admin_revoke',
          amount: input.amount,
          reason: input.reason,
          actorUserId: input.actorUserId,
        })
      ).entry;
    } catch (error) {
      if (error instanceof LedgerRefusal) {
        throw errors.conflict(`Cannot revoke ${input.amount} credits: only ${error.balance.available} available`, [{ available: error.balance.available }]);
      }
      throw error;
    }
    await this.audit({
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: `credits.${input.type}`,
      resourceType: 'credit_ledger_entry',
      resourceId: recorded._id,
      ...(input.requestId ? { requestId: input.requestId } : {}),
      metadata: { amount: input.amount, reason: input.reason },
    });
    return { entry: recorded, balance: toBalance(await this.ledger.rollForward(input.organizationId)) };
  }
}
