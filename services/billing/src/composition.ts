import type { DailyCredits, ExportAllowance } from '@crawl/contracts';
import type { BillingConfig } from './config.ts';
import { Accounts, type OpenAccount } from './features/accounts/index.ts';
import { CrawlerSettings } from './features/crawler/index.ts';
import { CreditLedger, type CreditAdministration } from './features/ledger/index.ts';
import { Checkout, parsePackages, paymentProviderFor, type PaymentProvider } from './features/packages/index.ts';
import { UsageCounters, type UsageReport } from './features/quotas/index.ts';
import { Reconciler, type JobStateLookup } from './features/reconciler/index.ts';
import { Referrals } from './features/referrals/index.ts';
import { Reservations } from './features/reservations/index.ts';
import { bestEffortAudit, type BillingResources, type RecordAudit } from './features/shared/index.ts';
import { openAccount } from './cross-feature/account-opening.ts';
import { adjustCredits, ledgerPage } from './cross-feature/admin-credits.ts';
import { consumeExport } from './cross-feature/export-allowance.ts';
import { rewardReferrer } from './cross-feature/referral-reward.ts';
import { dailyCredits, usageReport } from './cross-feature/usage-report.ts';
import type { BillingRepositories } from './repositories.ts';

/** What billing reaches outside itself through; each may be absent. */
export interface BillingPorts {
  /** Records an audit event in catalog's log; failures are logged, never raised. */
  audit?: RecordAudit;
  /** Catalog's job-state lookup for the reconciler; omitted when catalog is unreachable. */
  jobState?: JobStateLookup;
  /** Replaces the provider PAYMENT_PROVIDER names. */
  provider?: PaymentProvider;
}

/** The operations that span features (src/cross-feature/), each bound to only what it needs. */
export interface CrossFeatureOperations extends CreditAdministration {
  openAccount: OpenAccount;
  usageReport(organizationId: string): Promise<UsageReport>;
  dailyCredits(organizationId: string, month?: string): Promise<DailyCredits>;
  consumeExport(organizationId: string): Promise<ExportAllowance>;
}

/** Every billing service, built once: what the routes plugin hands to each feature's routes. */
export interface BillingServices {
  readonly ledger: CreditLedger;
  readonly usage: UsageCounters;
  readonly accounts: Accounts;
  readonly referrals: Referrals;
  readonly reservations: Reservations;
  readonly checkout: Checkout;
  readonly reconciler: Reconciler;
  readonly crawlerSettings: CrawlerSettings;
  /** Best effort: records in catalog's audit log, logs and carries on when that fails. */
  readonly audit: RecordAudit;
  readonly operations: CrossFeatureOperations;
}

/** Builds each billing service once, over the shared resources and the repositories. */
export function composeBilling(
  resources: BillingResources,
  repositories: BillingRepositories,
  config: BillingConfig,
  ports: BillingPorts = {},
): BillingServices {
  const { clock, logger } = resources;
  const ledger = new CreditLedger(resources, { repository: repositories.ledger });
  const usage = new UsageCounters(resources, { repository: repositories.usage });
  const accounts = new Accounts(resources, {
    repository: repositories.accounts,
    ledger,
    signupBonus: config.SIGNUP_BONUS_CREDITS,
    defaultLimits: {
      jobsPerMonth: config.LIMIT_JOBS_PER_MONTH,
      targetsPerMonth: config.LIMIT_TARGETS_PER_MONTH,
      exportsPerMonth: config.LIMIT_EXPORTS_PER_MONTH,
    },
  });
  const referrals = new Referrals(resources, {
    codes: repositories.referralCodes,
    accounts,
    ledger,
    rewardCredits: config.REFERRAL_REWARD_CREDITS,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  const reservations = new Reservations(resources, {
    repository: repositories.reservations,
    ledger,
    usage,
    accounts,
    cachedCredits: { details: config.CACHED_CREDITS_DETAILS, search: config.CACHED_CREDITS_SEARCH },
  });
  const audit = bestEffortAudit(ports.audit, logger);
  const checkout = new Checkout(resources, {
    orders: repositories.orders,
    ledger,
    accounts,
    packages: parsePackages(config.CREDIT_PACKAGES),
    provider: ports.provider ?? paymentProviderFor(config.PAYMENT_PROVIDER),
    audit,
    onPaid: (order) => rewardReferrer({ referrals, logger }, order),
  });
  const reconciler = new Reconciler(resources, {
    ledger,
    usage,
    reservations,
    ...(ports.jobState ? { jobState: ports.jobState } : {}),
    pendingTimeoutMs: config.RESERVATION_PENDING_TIMEOUT_MS,
    orphanAfterMs: config.RESERVATION_ORPHAN_AFTER_MS,
    maxHoldMs: config.RESERVATION_MAX_HOLD_MS,
  });
  const crawlerSettings = new CrawlerSettings(resources, {
    repository: repositories.crawlerSettings,
    defaultRate: config.UPSTREAM_RATE_PER_MINUTE,
    burst: config.UPSTREAM_BURST,
  });
  const operations: CrossFeatureOperations = {
    openAccount: (organizationId, ownerUserId, referralCode) => openAccount({ accounts, referrals, ledger, logger }, organizationId, ownerUserId, referralCode),
    usageReport: (organizationId) => usageReport({ accounts, usage, ledger, clock }, organizationId),
    dailyCredits: (organizationId, month) => dailyCredits({ ledger, clock }, organizationId, month),
    consumeExport: (organizationId) => consumeExport({ accounts, usage, clock }, organizationId),
    adjustCredits: (adjustment) => adjustCredits({ accounts, ledger, audit }, adjustment),
    ledgerPage: (organizationId, page) => ledgerPage({ accounts, ledger }, organizationId, page),
  };
  return { ledger, usage, accounts, referrals, reservations, checkout, reconciler, crawlerSettings, audit, operations };
}
