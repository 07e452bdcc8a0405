import { Type, type Static } from '@sinclair/typebox';
import { JobConfig, JobTypeSchema } from './catalog.ts';

/**
 * One unit of crawl work: a single target of a job. The queue's `group` is the organization, so
 * dispatch is fair across organizations.
 */
export const CrawlTask = Type.Object({
  jobId: Type.String({ minLength: 1 }),
  organizationId: Type.String({ minLength: 1 }),
  projectId: Type.String({ minLength: 1 }),
  targetIndex: Type.Integer({ minimum: 0 }),
  type: JobTypeSchema,
  /** The keyword, or the resolved identifier (ASIN, node id, seller id, prefix) for the other types: URLs are never fetched as given. */
  value: Type.String({ minLength: 1 }),
  /** The job's config as catalog checked it at create (docs/catalog.md). */
  config: JobConfig,
});
export type CrawlTask = Static<typeof CrawlTask>;

/** The job-finished event catalog emits for webhooks. */
export const JobFinishedEvent = Type.Object({
  jobId: Type.String(),
  organizationId: Type.String(),
  projectId: Type.String(),
  status: Type.Union([Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')]),
  occurredAt: Type.String(),
});
export type JobFinishedEvent = Static<typeof JobFinishedEvent>;
