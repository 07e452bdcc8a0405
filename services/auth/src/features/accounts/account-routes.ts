import { AuthRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { AccountService } from './account-service.ts';

/** /auth/*: register, log in (directly or through a hand-off token), log out, who am I. */
export function accountRoutes(app: FastifyInstance, accounts: AccountService): void {
  routeFromSpec(app, AuthRoutes.register, async (request, reply) => reply.code(201).send(await accounts.register(request.body, request.id)));
  routeFromSpec(app, AuthRoutes.login, async (request) => accounts.login(request.body.email, request.body.password, request.id));
  routeFromSpec(app, AuthRoutes.loginHandoff, async (request) => accounts.loginHandoff(request.body.email, request.body.password));
  routeFromSpec(app, AuthRoutes.verifyHandoff, async (request) => accounts.verifyHandoff(request.body.handoffToken, request.body.audience ?? 'api'));
  routeFromSpec(app, AuthRoutes.logout, async (_request, reply) => reply.code(204).send(null));
  routeFromSpec(app, AuthRoutes.me, async (request) => accounts.me(callerOf(request).userId));
}
