import { commaList, defineConfig } from '@crawl/config';
import { Type, type Static } from '@sinclair/typebox';

export const GatewayConfig = defineConfig({
  RATE_LIMIT_OVERRIDES: Type.String({
    default: '',
    description:
      'Override route throttles by policy name, e.g. `auth-ip=100,auth-ip-email=20,register-ip=5,webhook-test=5,admin-api=600,admin-crawler=60,referral-click=5` (docs/security.md lists them).',
  }),
  CORS_ORIGINS: Type.String({ default: '*', description: 'Comma-separated origins allowed by CORS, or `*`.' }),
});
export type GatewayConfig = Static<typeof GatewayConfig>;

/** `a=1,b=2` to `{a: 1, b: 2}`; anything malformed fails start-up with the offending entry. */
export function parseOverrides(text: string): Map<string, number> {
  const overrides = new Map<string, number>();
  for (const entry of commaList(text)) {
    const match = /^([a-z0-9-]+)=(\d+)$/i.exec(entry);
    if (!match) throw new Error(`RATE_LIMIT_OVERRIDES: cannot read "${entry}" (expected name=number)`);
    overrides.set(match[1] as string, Number(match[2]));
  }
  return overrides;
}
