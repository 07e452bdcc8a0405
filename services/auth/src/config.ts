import { defineConfig } from '@crawl/config';
import { Type, type Static } from '@sinclair/typebox';

export const AuthConfig = defineConfig({
  ADMIN_EMAILS: Type.String({
    default: '',
    description:
      'No longer grants anything (whoever registered such an address first became admin); set, it only logs a warning at start-up. Admins are granted with `crawl-server admin grant EMAIL`.',
  }),
  DASHBOARD_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, default: 43_200, description: 'Lifetime of dashboard tokens (default 12 hours).' }),
  ARGON2_MEMORY_KIB: Type.Integer({ minimum: 8_192, default: 19_456, description: 'argon2id memory cost per hash (OWASP minimum 19 MiB).' }),
  ARGON2_TIME_COST: Type.Integer({ minimum: 1, default: 2, description: 'argon2id iterations.' }),
});
export type AuthConfig = Static<typeof AuthConfig>;
