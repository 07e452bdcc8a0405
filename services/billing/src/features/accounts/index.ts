/** Accounts: billing's view of an organization (opened once with its signup bonus, plan limits, referral link). */
export { AccountRepository } from './account-repository.ts';
export { accountRoutes, type OpenAccount } from './account-routes.ts';
export { Accounts, type AccountDoc } from './account-service.ts';
