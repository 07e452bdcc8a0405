/** Accounts: billing's view of an organization (opened once with its signup bonus, plan limits, referral link). */
export { accountRoutes } from './account-routes.ts';
export { AccountRepository } from './account-repository.ts';
export { Accounts, type AccountDoc } from './account-service.ts';
