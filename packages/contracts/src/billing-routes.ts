import {
  AdminCreditsBody,
  AdminCreditsResponse,
  AdminLedgerQuery,
  AdminLedgerResponse,
  AdminLimitsBody,
  AdminLimitsResponse,
  AdminUsageResponse,
  CheckoutBody,
  CheckoutResponse,
  CreditPackagesResponse,
  OrganizationParams,
  ReconcileResponse,
  ReferralClickBody,
  ReferralClickResponse,
  ReferralCodeResponse,
  ReferralLinkQuery,
  ReferralLinkResponse,
  ReferralStatsResponse,
  UsageResponse,
  DailyCreditsQuery,
  DailyCreditsResponse,
} from './billing.ts';
import { CrawlerRateResponse, QueueStatsResponse, SetCrawlerRateBody } from './crawler.ts';
import { ErrorEnvelope } from './errors.ts';
import { defineRoutes, type RateLimitPolicy } from './route-spec.ts';

/** Spec: 5 requests per 10 seconds per IP, then 429. */
export const REFERRAL_CLICK_LIMIT: RateLimitPolicy = { name: 'referral-click', max: 5, timeWindowMs: 10_000, key: 'ip' };
/** Spec: admin API throttle, 600 per minute by default; operators override `admin-api`. */
export const BILLING_ADMIN_LIMIT: RateLimitPolicy = { name: 'admin-api', max: 600, timeWindowMs: 60_000, key: 'identity' };
const adminLimits = [BILLING_ADMIN_LIMIT] as const;
/** Spec: the admin crawler throttle, 60 per minute by default; operators override `admin-crawler`. */
export const CRAWLER_ADMIN_LIMIT: RateLimitPolicy = { name: 'admin-crawler', max: 60, timeWindowMs: 60_000, key: 'identity' };

const authErrors = { 401: ErrorEnvelope, 403: ErrorEnvelope } as const;
const adminErrors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope } as const;

/** Public routes owned by billing (usage, credit packages, checkout, referrals, billing admin, crawler rate and queue stats). */
export const BillingRoutes = defineRoutes({
  usage: {
    method: 'GET',
    url: '/usage',
    owner: 'billing',
    access: 'user',
    schema: {
      summary: "Monthly limits, consumption and remaining allowance of the caller's organization, with its credit balance",
      tags: ['usage'],
      response: { 200: UsageResponse, ...authErrors },
    },
  },
  dailyCredits: {
    method: 'GET',
    url: '/usage/daily',
    owner: 'billing',
    access: 'user',
    schema: {
      summary: "Credits spent and added per UTC day of a month, for the caller's organization (from its credit ledger)",
      tags: ['usage'],
      querystring: DailyCreditsQuery,
      response: { 200: DailyCreditsResponse, 400: ErrorEnvelope, ...authErrors },
    },
  },
  creditPackages: {
    method: 'GET',
    url: '/private/credits/packages',
    owner: 'billing',
    access: 'dashboard',
    schema: {
      summary: 'Credit packages for sale (dashboard token required)',
      tags: ['credits'],
      description: 'Display rate: 1 currency unit = 10,000 credits; `bonusCredits` come on top.',
      response: { 200: CreditPackagesResponse, ...authErrors },
    },
  },
  checkout: {
    method: 'POST',
    url: '/private/credits/checkout',
    owner: 'billing',
    access: 'dashboard',
    schema: {
      summary: 'Buy a credit package through the configured payment provider (dashboard token required)',
      tags: ['credits'],
      description:
        'The sandbox provider (development only, PAYMENT_PROVIDER=sandbox) completes at once: the answer is a completed order and the new balance. A deployment without a payment provider answers 503 with `details: [{reason: "PAYMENTS_NOT_CONFIGURED"}]`.',
      body: CheckoutBody,
      response: { 201: CheckoutResponse, 400: ErrorEnvelope, ...authErrors, 404: ErrorEnvelope, 503: ErrorEnvelope },
    },
  },
  referralCode: {
    method: 'GET',
    url: '/referral/code',
    owner: 'billing',
    access: 'user',
    schema: {
      summary: "The caller's referral code (created on first request)",
      tags: ['referral'],
      response: { 200: ReferralCodeResponse, ...authErrors },
    },
  },
  referralClick: {
    method: 'POST',
    url: '/referral/click',
    owner: 'billing',
    access: 'public',
    rateLimits: [REFERRAL_CLICK_LIMIT],
    schema: {
      summary: 'Record a click on a referral link (5 per 10 seconds per address)',
      tags: ['referral'],
      body: ReferralClickBody,
      response: { 200: ReferralClickResponse, 400: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  referralLink: {
    method: 'GET',
    url: '/referral/click',
    owner: 'billing',
    access: 'public',
    rateLimits: [REFERRAL_CLICK_LIMIT],
    schema: {
      summary: 'Follow a referral link: records a click and says how to register with the code',
      description: 'The `link` of GET /referral/code. Shares the 5 per 10 seconds per address of POST /referral/click.',
      tags: ['referral'],
      querystring: ReferralLinkQuery,
      response: { 200: ReferralLinkResponse, 400: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  referralStats: {
    method: 'GET',
    url: '/referral/stats',
    owner: 'billing',
    access: 'user',
    schema: {
      summary: "Clicks, signups and rewards of the caller's referral code",
      tags: ['referral'],
      response: { 200: ReferralStatsResponse, ...authErrors },
    },
  },
  adminCredits: {
    method: 'POST',
    url: '/admin/organizations/:organizationId/credits',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: "Grant or revoke an organization's credits",
      tags: ['admin'],
      description: 'A revoke takes only available credits; more than that is a 409.',
      params: OrganizationParams,
      body: AdminCreditsBody,
      response: { 201: AdminCreditsResponse, ...adminErrors, 409: ErrorEnvelope },
    },
  },
  adminLimits: {
    method: 'PATCH',
    url: '/admin/organizations/:organizationId/limits',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: "Set an organization's monthly limits (null restores the default)",
      tags: ['admin'],
      params: OrganizationParams,
      body: AdminLimitsBody,
      response: { 200: AdminLimitsResponse, ...adminErrors },
    },
  },
  adminUsage: {
    method: 'GET',
    url: '/admin/organizations/:organizationId/usage',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: "Any organization's usage and full balance",
      tags: ['admin'],
      params: OrganizationParams,
      response: { 200: AdminUsageResponse, ...adminErrors },
    },
  },
  adminLedger: {
    method: 'GET',
    url: '/admin/organizations/:organizationId/ledger',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: "Any organization's credit ledger, newest first",
      tags: ['admin'],
      params: OrganizationParams,
      querystring: AdminLedgerQuery,
      response: { 200: AdminLedgerResponse, ...adminErrors },
    },
  },
  adminReconcile: {
    method: 'POST',
    url: '/admin/billing/reconcile',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: 'Run the reservation reconciler now',
      tags: ['admin'],
      response: { 200: ReconcileResponse, 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  getCrawlerRate: {
    method: 'GET',
    url: '/admin/crawler/rate',
    owner: 'billing',
    access: 'admin',
    rateLimits: [CRAWLER_ADMIN_LIMIT],
    schema: {
      summary: 'The upstream request rate of each egress identity, and the identities',
      tags: ['admin'],
      response: { 200: CrawlerRateResponse, 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  setCrawlerRate: {
    method: 'PUT',
    url: '/admin/crawler/rate',
    owner: 'billing',
    access: 'admin',
    rateLimits: [CRAWLER_ADMIN_LIMIT],
    schema: {
      summary: 'Change the upstream request rate of each egress identity at run time',
      tags: ['admin'],
      description:
        'The rate applies to each egress identity (the direct connection, or each proxy), so capacity is rate × identities. Stored by billing (kept across restarts); every crawler-worker replica picks it up within RATE_SETTING_REFRESH_MS.',
      body: SetCrawlerRateBody,
      response: { 200: CrawlerRateResponse, 400: ErrorEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
  queueStats: {
    method: 'GET',
    url: '/admin/queue/stats',
    owner: 'billing',
    access: 'admin',
    rateLimits: adminLimits,
    schema: {
      summary: 'Counts of the crawl queue (waiting, active, delayed, failed, completed)',
      tags: ['admin'],
      response: { 200: QueueStatsResponse, 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope },
    },
  },
});
