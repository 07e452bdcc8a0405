import { defineModule } from '@crawl/runtime';
import { AuditClient, BillingClient } from '@crawl/service-client';
import { AuthConfig } from './config.ts';
import { AccountRepository, AccountService } from './features/accounts/index.ts';
import { PasswordHasher } from './features/passwords/index.ts';
import { TokenIssuer } from './features/tokens/index.ts';
import { authRoutes } from './plugin.ts';

/** Users, organizations and tokens: /auth/*. */
export const authModule = defineModule<AuthConfig>({
  name: 'auth',
  ownsData: true,
  dependencies: ['billing', 'catalog'],
  configSchema: AuthConfig,
  async init(context) {
    if (context.config.ADMIN_EMAILS.trim() !== '') {
      context.logger.warn('ADMIN_EMAILS is ignored: admins are granted with `crawl-server admin grant EMAIL` (see docs/security.md)');
    }
    const repository = new AccountRepository(context.store);
    await repository.init();
    const accounts = new AccountService({
      repository,
      hasher: new PasswordHasher({ memoryCost: context.config.ARGON2_MEMORY_KIB, timeCost: context.config.ARGON2_TIME_COST }),
      tokens: new TokenIssuer(context.secrets.jwtSecret, context.config.DASHBOARD_TOKEN_TTL_SECONDS),
      clock: context.clock,
      logger: context.logger,
      billing: new BillingClient(context.client('billing')),
      audit: new AuditClient(context.client('catalog')),
    });
    return { routes: authRoutes(accounts) };
  },
});
