import type { DocumentStore } from '@crawl/storage';
import { AccountRepository } from './features/accounts/index.ts';
import { CrawlerSettingsRepository } from './features/crawler/index.ts';
import { LedgerRepository } from './features/ledger/index.ts';
import { OrderRepository } from './features/packages/index.ts';
import { UsageRepository } from './features/quotas/index.ts';
import { ReferralCodeRepository } from './features/referrals/index.ts';
import { ReservationRepository } from './features/reservations/index.ts';

/** Every collection billing keeps, one repository each, built once over the service's store. */
export interface BillingRepositories {
  readonly accounts: AccountRepository;
  readonly ledger: LedgerRepository;
  readonly usage: UsageRepository;
  readonly reservations: ReservationRepository;
  readonly referralCodes: ReferralCodeRepository;
  readonly orders: OrderRepository;
  readonly crawlerSettings: CrawlerSettingsRepository;
}

export function billingRepositories(store: DocumentStore): BillingRepositories {
  return {
    accounts: new AccountRepository(store),
    ledger: new LedgerRepository(store),
    usage: new UsageRepository(store),
    reservations: new ReservationRepository(store),
    referralCodes: new ReferralCodeRepository(store),
    orders: new OrderRepository(store),
    crawlerSettings: new CrawlerSettingsRepository(store),
  };
}

/** Declares the indexes of every collection (idempotent), once at start-up; crawler settings are read by `_id` only. */
export async function ensureBillingIndexes(repositories: BillingRepositories): Promise<void> {
  const { accounts, ledger, usage, reservations, referralCodes, orders } = repositories;
  await Promise.all([accounts.init(), ledger.init(), usage.init(), reservations.init(), referralCodes.init(), orders.init()]);
}
