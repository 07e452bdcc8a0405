import { BILLING_ADMIN_LIMIT } from './billing-routes.ts';
import { CrawlerRateResponse, QueueStatsResponse, SetCrawlerRateBody } from './crawler.ts';
import { ErrorEnvelope } from './errors.ts';
import { defineRoutes, type RateLimitPolicy } from './route-spec.ts';

/** Spec: the admin crawler throttle, 60 per minute by default; operators override `admin-crawler`. */
export const CRAWLER_ADMIN_LIMIT: RateLimitPolicy = { name: 'admin-crawler', max: 60, timeWindowMs: 60_000, key: 'identity' };

const adminErrors = { 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope } as const;

/** Public routes owned by crawler-worker (admin crawler controls). */
export const CrawlerRoutes = defineRoutes({
  getCrawlerRate: {
    method: 'GET',
    url: '/admin/crawler/rate',
    owner: 'crawler-worker',
    access: 'admin',
    rateLimits: [CRAWLER_ADMIN_LIMIT],
    schema: {
      summary: 'The global upstream request rate of the crawler',
      tags: ['admin'],
      response: { 200: CrawlerRateResponse, ...adminErrors },
    },
  },
  setCrawlerRate: {
    method: 'PUT',
    url: '/admin/crawler/rate',
    owner: 'crawler-worker',
    access: 'admin',
    rateLimits: [CRAWLER_ADMIN_LIMIT],
    schema: {
      summary: 'Change the global upstream request rate at run time',
      tags: ['admin'],
      description: 'Takes effect at once for requests waiting for their turn; kept across restarts and picked up by other worker replicas within RATE_SETTING_REFRESH_MS.',
      body: SetCrawlerRateBody,
      response: { 200: CrawlerRateResponse, 400: ErrorEnvelope, ...adminErrors },
    },
  },
  queueStats: {
    method: 'GET',
    url: '/admin/queue/stats',
    owner: 'crawler-worker',
    access: 'admin',
    rateLimits: [BILLING_ADMIN_LIMIT],
    schema: {
      summary: 'Counts of the crawl queue (waiting, active, delayed, failed, completed)',
      tags: ['admin'],
      response: { 200: QueueStatsResponse, ...adminErrors },
    },
  },
});
