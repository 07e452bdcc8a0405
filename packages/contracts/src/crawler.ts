import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** Bounds of the admin-set upstream rate (requests per minute of each egress identity, every replica together). */
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
      'Marketplace requests per minute of each egress identity (the direct connection, or each proxy of PROXY_URLS), retries included: capacity is this rate × identities. With REDIS_URL each identity has one budget for every worker replica (in Redis); without, one per process. Admins change it at run time (PUT /admin/crawler/rate, stored by billing).',
  }),
  UPSTREAM_BURST: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 1,
    description: 'Token-bucket capacity of each egress identity: requests that may go out back to back after an idle spell.',
  }),
};

export const CrawlerEgressIdentity = Type.Object({
  id: Type.String({ description: 'Stable id of the identity: `direct`, or `proxy-` and a digest of the proxy URL.' }),
  label: Type.String({ description: '`direct`, or the proxy URL with its credentials masked.', examples: ['http://***@proxy.example:8080'] }),
  ratePerMinute: Type.Integer({ minimum: 1, description: 'Requests per minute this identity may send (the rate in force).' }),
  cooledDownUntil: Type.Union([Timestamp, Type.Null()], {
    description: 'While set, the proxy kept getting blocked and takes no work; its share moves to the others.',
  }),
  blockedRecently: Type.Integer({ minimum: 0, description: 'Blocked responses through this identity in the last PROXY_REST_MS.' }),
});
export type CrawlerEgressIdentity = Static<typeof CrawlerEgressIdentity>;

export const CrawlerRate = Type.Object({
  requestsPerMinute: Type.Integer({
    minimum: 1,
    description: 'Marketplace requests per minute of each egress identity (every worker replica together), retries included.',
  }),
  burst: Type.Integer({ minimum: 1, description: 'Requests an identity may send back to back after an idle spell.' }),
  source: Type.Union([Type.Literal('default'), Type.Literal('admin')], { description: '`default`: UPSTREAM_RATE_PER_MINUTE; `admin`: set through this API.' }),
  updatedAt: Type.Optional(Timestamp),
  perIdentity: Type.Literal(true, { description: '`requestsPerMinute` is the budget of each egress identity, not of the whole crawler.' }),
  capacityPerMinute: Type.Integer({
    minimum: 0,
    description: 'Requests per minute the crawler can send now: the rate × identities not cooled down (the rate alone until a worker reported).',
  }),
  identities: Type.Array(CrawlerEgressIdentity, { description: 'The egress identities as the workers last reported them (empty until one did).' }),
  identitiesReportedAt: Type.Optional(Timestamp),
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
