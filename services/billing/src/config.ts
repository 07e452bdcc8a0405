import { defineConfig } from '@crawl/config';
import { UpstreamRateConfig } from '@crawl/contracts';
import { Type, type Static } from '@sinclair/typebox';

export const BillingConfig = defineConfig({
  ...UpstreamRateConfig,
  CACHED_CREDITS_DETAILS: Type.Integer({
    minimum: 0,
    default: 1,
    description: 'Credits a details target answered from the shared page cache (`config.maxAge`) costs, instead of the full price.',
  }),
  CACHED_CREDITS_SEARCH: Type.Integer({
    minimum: 0,
    default: 2,
    description: 'Credits a search results page answered from the shared page cache (`config.maxAge`) costs, instead of the full price.',
  }),
  SIGNUP_BONUS_CREDITS: Type.Integer({ minimum: 0, default: 1000, description: 'Credits granted once when an organization is created.' }),
  LIMIT_JOBS_PER_MONTH: Type.Integer({ minimum: 0, default: 10, description: 'Default monthly job limit per organization (UTC calendar month).' }),
  LIMIT_TARGETS_PER_MONTH: Type.Integer({ minimum: 0, default: 100, description: 'Default monthly target limit per organization.' }),
  LIMIT_EXPORTS_PER_MONTH: Type.Integer({ minimum: 0, default: 20, description: 'Default monthly export limit per organization.' }),
  REFERRAL_REWARD_CREDITS: Type.Integer({
    minimum: 0,
    default: 500,
    description:
      "Credits granted once to the referrer's organization when a referred organization completes its first purchase of a paid package (not for signing up or running jobs).",
  }),
  PUBLIC_BASE_URL: Type.String({
    default: '',
    pattern: '^(https?://[^\\s?#]+)?$',
    description:
      'The URL clients reach the API at (`https://api.example.com`), for the absolute links billing hands out (the referral link). Empty: the address of each request, which is right when the gateway runs in the same process; set it when billing runs on its own.',
  }),
  CREDIT_PACKAGES: Type.String({
    default: '',
    description: 'JSON array of credit packages `{id, name, priceCents, currency, credits, bonusCredits}`; empty: the built-in catalog.',
  }),
  PAYMENT_PROVIDER: Type.Union([Type.Literal('none'), Type.Literal('sandbox')], {
    default: 'none',
    description:
      'Payment provider for checkout. `none`: checkout answers 503 `SERVICE_UNAVAILABLE` (no credits can be bought). `sandbox`: every order completes at once with no money moving (development and tests only; refused at start-up when NODE_ENV=production).',
  }),
  NODE_ENV: Type.String({ default: 'development', description: '`production` refuses to start with PAYMENT_PROVIDER=sandbox.' }),
  RECONCILE_INTERVAL_MS: Type.Integer({ minimum: 0, default: 60_000, description: 'How often the reservation reconciler runs; 0 disables the timer.' }),
  RESERVATION_PENDING_TIMEOUT_MS: Type.Integer({
    minimum: 1_000,
    default: 5 * 60_000,
    description: 'A reservation still being taken after this long (the request died mid-way) is rolled back.',
  }),
  RESERVATION_ORPHAN_AFTER_MS: Type.Integer({
    minimum: 1_000,
    default: 30_000,
    description:
      'A held reservation whose job catalog does not know after this long is released, quota included (catalog marks the job abandoned, so it can no longer be stored).',
  }),
  RESERVATION_ORPHAN_CHECK_INTERVAL_MS: Type.Integer({
    minimum: 0,
    default: 15_000,
    description: 'How often held reservations older than RESERVATION_ORPHAN_AFTER_MS are checked with catalog; 0 leaves it to the full reconciler pass.',
  }),
  RESERVATION_MAX_HOLD_MS: Type.Integer({
    minimum: 60_000,
    default: 24 * 60 * 60_000,
    description: 'A held reservation not settled after this long is released in full (a later settlement changes nothing).',
  }),
});
export type BillingConfig = Static<typeof BillingConfig>;

/** Settings that are valid one by one but not together; a non-empty list stops start-up. */
export function billingConfigProblems(config: Pick<BillingConfig, 'PAYMENT_PROVIDER' | 'NODE_ENV'>): string[] {
  if (config.PAYMENT_PROVIDER === 'sandbox' && config.NODE_ENV === 'production') {
    return [
      'PAYMENT_PROVIDER: `sandbox` grants credits without payment and is refused when NODE_ENV=production (configure a real provider or leave it `none`)',
    ];
  }
  return [];
}
