import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** Bounds of the admin-set upstream rate (requests per minute, all workers of a process together). */
export const CRAWLER_LIMITS = { minRequestsPerMinute: 1, maxRequestsPerMinute: 60_000 } as const;

/**
 * The upstream rate settings: the crawler-worker applies them, billing (which stores the admin-set
 * rate) reports them in GET /admin/crawler/rate. Both read them from the same variables.
 */
export const UpstreamRateConfig = {
  UPSTREAM_RATE_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 60_000,
    default: 60,
    description:
      'Marketplace requests per minute for all crawl concurrency together, retries included: of this process, or of every worker replica when REDIS_URL is set (one budget in Redis). Admins change it at run time (PUT /admin/crawler/rate, stored by billing).',
  }),
  UPSTREAM_BURST: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 1,
    description: 'Token-bucket capacity: requests that may go out back to back after an idle spell.',
  }),
};

export const CrawlerRate = Type.Object({
  requestsPerMinute: Type.Integer({ minimum: 1, description: 'Marketplace requests per minute for all crawl concurrency together, retries included.' }),
  burst: Type.Integer({ minimum: 1, description: 'Requests that may go out back to back after an idle spell.' }),
  source: Type.Union([Type.Literal('default'), Type.Literal('admin')], { description: '`default`: UPSTREAM_RATE_PER_MINUTE; `admin`: set through this API.' }),
  updatedAt: Type.Optional(Timestamp),
});
export type CrawlerRate = Static<typeof CrawlerRate>;

export const CrawlerRateResponse = Type.Object({ data: CrawlerRate });
export type CrawlerRateResponse = Static<typeof CrawlerRateResponse>;

export const SetCrawlerRateBody = Type.Object(
  {
    requestsPerMinute: Type.Integer({
      minimum: CRAWLER_LIMITS.minRequestsPerMinute,
      maximum: CRAWLER_LIMITS.maxRequestsPerMinute,
      examples: [60],
    }),
  },
  { additionalProperties: false },
);
export type SetCrawlerRateBody = Static<typeof SetCrawlerRateBody>;

export const QueueStatsView = Type.Object({
  queue: Type.String({ examples: ['crawl-targets'] }),
  backend: Type.Union([Type.Literal('in-process'), Type.Literal('bullmq')]),
  waiting: Type.Integer({ minimum: 0 }),
  active: Type.Integer({ minimum: 0 }),
  delayed: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  completed: Type.Integer({ minimum: 0 }),
  groups: Type.Integer({ minimum: 0, description: 'Organizations with waiting work.' }),
});
export type QueueStatsView = Static<typeof QueueStatsView>;

export const QueueStatsResponse = Type.Object({ data: QueueStatsView });
export type QueueStatsResponse = Static<typeof QueueStatsResponse>;
