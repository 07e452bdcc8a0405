import { commaList, defineConfig } from '@crawl/config';
import { Type, type Static } from '@sinclair/typebox';

export const AuthConfig = defineConfig({
  ADMIN_EMAILS: Type.String({ default: '', description: 'Comma-separated emails whose tokens carry the admin role.' }),
  DASHBOARD_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, default: 43_200, description: 'Lifetime of dashboard tokens (default 12 hours).' }),
  ARGON2_MEMORY_KIB: Type.Integer({ minimum: 8_192, default: 19_456, description: 'argon2id memory cost per hash (OWASP minimum 19 MiB).' }),
  ARGON2_TIME_COST: Type.Integer({ minimum: 1, default: 2, description: 'argon2id iterations.' }),
});
export type AuthConfig = Static<typeof AuthConfig>;

export function adminEmailSet(text: string): Set<string> {
  return new Set(commaList(text.toLowerCase()));
}
