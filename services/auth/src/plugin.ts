import type { FastifyInstance } from 'fastify';
import { accountRoutes, type AccountService } from './features/accounts/index.ts';

/** Auth's routes in their own encapsulated context. */
export function authRoutes(accounts: AccountService) {
  return async function authPlugin(app: FastifyInstance): Promise<void> {
    accountRoutes(app, accounts);
  };
}
