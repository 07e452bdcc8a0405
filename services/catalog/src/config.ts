import { defineConfig } from '@crawl/config';
import { CATALOG_LIMITS } from '@crawl/contracts';
import { Type, type Static } from '@sinclair/typebox';

export const CatalogConfig = defineConfig({
  MARKETPLACE_EXTRA_HOSTS: Type.String({
    default: '',
    description:
      'Comma-separated hosts (host or host:port) accepted in details URL targets besides the marketplace storefronts, e.g. the local simulator `127.0.0.1:4010`.',
  }),
  SCHEDULER_ENABLED: Type.Boolean({
    default: true,
    description: 'Run the schedule and monitor firing loop in this process (safe on several replicas: runs are claimed atomically).',
  }),
  SCHEDULER_TICK_MS: Type.Integer({
    minimum: 100,
    default: 30_000,
    description: "How often the scheduler looks for due schedules and monitors (and starts and decides monitors' confirmations).",
  }),
  SCHEDULE_MIN_INTERVAL_MINUTES: Type.Integer({
    minimum: 1,
    default: CATALOG_LIMITS.scheduleMinIntervalMinutes,
    description: 'Reject cron expressions that fire more often than this.',
  }),
  CRAWL_TASK_ATTEMPTS: Type.Integer({ minimum: 1, default: 3, description: 'Queue attempts per crawl task before it is dead-lettered.' }),
  REQUEUE_STALE_AFTER_MS: Type.Integer({
    minimum: 1_000,
    default: 600_000,
    description: 'The maintenance loop re-enqueues open targets of jobs untouched for this long (enqueue is idempotent by task id).',
  }),
  JOB_EVENTS_HEARTBEAT_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 15_000,
    description:
      'A `: keep-alive` comment on each open job event stream this often, so idle proxies keep it open (stay below their idle timeout and HTTP_IDLE_TIMEOUT_MS).',
  }),
  JOB_EVENTS_POLL_MS: Type.Integer({
    minimum: 50,
    default: 5_000,
    description: 'Each open job event stream reads its job this often even without a change announced (a lost announcement costs at most this delay).',
  }),
  JOB_EVENTS_MAX_STREAMS_PER_ORG: Type.Integer({
    minimum: 1,
    default: 20,
    description: 'Job event streams one organization may hold open on one catalog process; beyond it 429 RATE_LIMIT_EXCEEDED.',
  }),
  WEBHOOK_REQUIRE_HTTPS: Type.Boolean({ default: true, description: 'Webhook URLs must use https. Set false only for local development and tests.' }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({
    default: false,
    description:
      'UNSAFE for production: allow webhook URLs on loopback, private, link-local and metadata addresses (local receivers in development and tests).',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 10_000,
    description: 'Per-attempt webhook timeout (connect, send and response).',
  }),
  WEBHOOK_DELIVERY_CONCURRENCY: Type.Integer({ minimum: 1, default: 16, description: 'Webhook attempts in flight per catalog process.' }),
  WEBHOOK_MAX_IN_FLIGHT_PER_ORG: Type.Integer({
    minimum: 1,
    default: 4,
    description: 'Webhook attempts one organization may have in flight at once (across replicas), so a slow endpoint never holds up other organizations.',
  }),
  WEBHOOK_DISPATCH_INTERVAL_MS: Type.Integer({
    minimum: 50,
    default: 1_000,
    description: 'How often due webhook deliveries are picked up (job ends also trigger a pass at once).',
  }),
  WEBHOOK_DISABLE_AFTER_HOURS: Type.Integer({
    minimum: 1,
    default: 72,
    description: 'An endpoint whose every attempt failed for this long is disabled (the reason is shown on the endpoint).',
  }),
  WEBHOOK_SECRET_OVERLAP_HOURS: Type.Integer({
    minimum: 0,
    default: 24,
    description: 'After a secret rotation, deliveries are also signed with the previous secret for this long.',
  }),
  WEBHOOK_SECRETS_KEY: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Key material (at least 32 bytes) that encrypts webhook signing secrets at rest. Unset: derived from JWT_SECRET.',
    }),
  ),
  WEBHOOK_PUBLIC_BASE_URL: Type.String({
    default: '',
    description: 'Public API base URL for links in webhook payloads, e.g. `https://api.example.com`. Empty: links are paths.',
  }),
  WEBHOOK_LOG_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'Finished webhook deliveries are removed from the delivery log after this many days.',
  }),
  HISTORY_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    default: 400,
    description: 'Change points of product and rank history last seen longer ago than this are removed (a subject still checked keeps its current values).',
  }),
  PAGE_CACHE_MAX_ENTRIES: Type.Integer({
    minimum: 1,
    default: 100_000,
    description: 'Targets the shared page cache keeps (`config.maxAge`); past it, the oldest fetches are removed first.',
  }),
  PAGE_CACHE_MAX_ENTRY_BYTES: Type.Integer({
    minimum: 1024,
    default: 512 * 1024,
    description: "Largest cached target (its records as JSON); a larger one is not cached. The cache's size is at most entries × this.",
  }),
  PAGE_CACHE_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 720,
    description: 'How long a cached fetch is kept at all (a TTL index on MongoDB); no `maxAge` reaches further.',
  }),
});
export type CatalogConfig = Static<typeof CatalogConfig>;
