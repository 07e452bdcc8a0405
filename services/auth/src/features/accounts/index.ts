/** Accounts: users, organizations and memberships; register, log in, handoff, who am I; the operator's admin role. */
export { AccountRepository } from './account-repository.ts';
export { accountRoutes } from './account-routes.ts';
export { AccountService } from './account-service.ts';
export { changeAdminRole, listAdmins, type AdminChange, type AdminRoleResult } from './admin-roles.ts';
