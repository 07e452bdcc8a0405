import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './features/accounts/account-routes.ts';
import type { AccountService } from './features/accounts/account-service.ts';

/** Auth's routes in their own encapsulated context. */
export function authRoutes(accounts: AccountService) {
  return async function authPlugin(app: FastifyInstance): Promise<void> {
    accountRoutes(app, accounts);
  };
}
