import { Type, type Static } from '@sinclair/typebox';

export const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
export type Role = Static<typeof Role>;

/** `api` tokens come from register/login; `dashboard` tokens from verify-handoff with `audience: "dashboard"`. */
export const TokenAudience = Type.Union([Type.Literal('api'), Type.Literal('dashboard')]);
export type TokenAudience = Static<typeof TokenAudience>;

/** Who is calling, as the gateway established it. Services trust it only when it arrives signed. */
export const Identity = Type.Object({
  userId: Type.String(),
  organizationId: Type.String(),
  email: Type.String(),
  role: Role,
  audience: TokenAudience,
});
export type Identity = Static<typeof Identity>;

/** What a route needs from its caller. */
export type AccessLevel = 'public' | 'optional' | 'user' | 'dashboard' | 'admin' | 'internal';

export const TOKEN_ISSUER = 'crawl-data-service';
/** JWT `aud` claim values; a token for one audience is never accepted for another. */
export const JWT_AUDIENCE = {
  api: 'crawl-api',
  dashboard: 'crawl-dashboard',
  handoff: 'crawl-handoff',
} as const;
export const ACCESS_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const HANDOFF_TOKEN_TTL_SECONDS = 5 * 60;
