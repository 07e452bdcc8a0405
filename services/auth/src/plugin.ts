import { AuthRoutes, type LoginBody, type RegisterBody, type VerifyHandoffBody } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { routeFromSpec } from '@crawl/modules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService } from './features/accounts/account-service.ts';

export function authRoutes(accounts: AccountService) {
  return async function authPlugin(app: FastifyInstance): Promise<void> {
    routeFromSpec(app, AuthRoutes.register, async (request: FastifyRequest<{ Body: RegisterBody }>, reply) =>
      reply.code(201).send(await accounts.register(request.body, request.id)),
    );
    routeFromSpec(app, AuthRoutes.login, async (request: FastifyRequest<{ Body: LoginBody }>) => accounts.login(request.body.email, request.body.password, request.id));
    routeFromSpec(app, AuthRoutes.loginHandoff, async (request: FastifyRequest<{ Body: LoginBody }>) => accounts.loginHandoff(request.body.email, request.body.password));
    routeFromSpec(app, AuthRoutes.verifyHandoff, async (request: FastifyRequest<{ Body: VerifyHandoffBody }>) =>
      accounts.verifyHandoff(request.body.handoffToken, request.body.audience ?? 'api'),
    );
    routeFromSpec(app, AuthRoutes.logout, async (_request, reply) => reply.code(204).send());
    routeFromSpec(app, AuthRoutes.me, async (request) => {
      if (!request.identity) throw errors.unauthorized();
      return accounts.me(request.identity.userId);
    });
  };
}
