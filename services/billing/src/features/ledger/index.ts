/** The credit ledger: balances, entries and their rules, the daily figures, the admin credit routes. */
export { applyDelta, invariantProblems, LedgerRefusal, ZERO_BALANCE } from './balance.ts';
export { monthCharges } from './daily-credits.ts';
export { LedgerRepository } from './ledger-repository.ts';
export { ledgerRoutes, type CreditAdjustment, type CreditAdministration } from './ledger-routes.ts';
export { CreditLedger, type BalanceDoc, type LedgerEntryDoc } from './ledger-service.ts';
export { toBalance } from './ledger-view.ts';
