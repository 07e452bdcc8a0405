import { defineConfig } from '@crawl/config';
import { CATALOG_LIMITS } from '@crawl/contracts';
import { Type, type Static } from '@sinclair/typebox';

export const CatalogConfig = defineConfig({
  MARKETPLACE_EXTRA_HOSTS: Type.String({
    default: '',
    description: 'Comma-separated hosts (host or host:port) accepted in details URL targets besides the marketplace storefronts, e.g. the local simulator `127.0.0.1:4010`.',
  }),
  SCHEDULER_ENABLED: Type.Boolean({ default: true, description: 'Run the schedule firing loop in this process (safe on several replicas: runs are claimed atomically).' }),
  SCHEDULER_TICK_MS: Type.Integer({ minimum: 100, default: 30_000, description: 'How often the scheduler looks for due schedules.' }),
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
});
export type CatalogConfig = Static<typeof CatalogConfig>;

export function parseHostList(text: string): string[] {
  return text
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}
