import { CreateJobBody, ProductLatestQuery } from '@crawl/contracts';
import { type CrawlClient, isCrawlApiError, type Job } from '@crawl/sdk';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool.ts';
import { OptionalProjectId, WaitSeconds } from '../tool-inputs.ts';

/** Runs a one-target job to its end (or the wait's end) and answers with its first results. */
async function runAndRead(
  client: CrawlClient,
  projectId: string,
  body: CreateJobBody,
  waitSeconds: number,
  limit: number,
  signal: AbortSignal,
): Promise<{ job: Job; finished: boolean; results: unknown[] }> {
  const created = await client.jobs.create(projectId, body, { signal });
  let job: Job;
  try {
    // Polling, not the event stream: a tool call is short, and polling needs nothing held open.
    job = await client.jobs.wait(created.id, { events: false, pollIntervalMs: 500, timeoutMs: waitSeconds * 1000, signal });
  } catch (error) {
    if (signal.aborted || !(error instanceof Error) || error.name !== 'TimeoutError') throw error;
    return { job: await client.jobs.get(created.id, { signal }), finished: false, results: [] };
  }
  const page = await client.jobs.resultsPage(job.id, { pageSize: limit }, { signal });
  return { job, finished: true, results: page.items };
}

export const searchProducts = defineTool({
  name: 'search_products',
  title: 'Search products',
  description:
    'Searches the marketplace for a keyword (a search job of one target, 5 credits), waits for it and answers with the first results (asin, title, price, rank, rating, …). When the wait runs out, it answers with the job: read it later with job_status and job_results.',
  input: Type.Object(
    {
      keyword: Type.String({ minLength: 1, maxLength: 200, description: 'What a shopper would type in the search box.' }),
      projectId: OptionalProjectId,
      config: CreateJobBody.properties.config,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many results to include.' })),
      waitSeconds: WaitSeconds,
    },
    { additionalProperties: false },
  ),
  readOnly: false,
  run: async ({ keyword, projectId, config, limit = 10, waitSeconds = 120 }, { client, projectId: projectOf, signal }) => {
    const body: CreateJobBody = { type: 'search', targets: [keyword], ...(config ? { config } : {}) };
    const { job, finished, results } = await runAndRead(client, await projectOf(projectId), body, waitSeconds, limit, signal);
    return { jobId: job.id, status: job.status, finished, results };
  },
});

export const getProduct = defineTool({
  name: 'get_product',
  title: 'Get a product',
  description:
    "A product's details by ASIN. Without `fresh`, the latest values the caller's jobs observed (free) when there are any; otherwise, or with `fresh`, a details job of one target (2 credits), waited for.",
  input: Type.Object(
    {
      asin: Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'The 10-character ASIN, e.g. B0C1234567.' }),
      ...ProductLatestQuery.properties,
      fresh: Type.Optional(Type.Boolean({ default: false, description: 'Crawl the product now rather than answer from what was observed.' })),
      projectId: OptionalProjectId,
      waitSeconds: WaitSeconds,
    },
    { additionalProperties: false },
  ),
  readOnly: false,
  run: async ({ asin, domain, zip, fresh = false, projectId, waitSeconds = 120 }, { client, projectId: projectOf, signal }) => {
    if (!fresh) {
      try {
        const latest = await client.history.latest(asin, { ...(domain ? { domain } : {}), ...(zip ? { zip } : {}) }, { signal });
        return { source: 'observed', observation: latest };
      } catch (error) {
        if (!isCrawlApiError(error, 'NOT_FOUND')) throw error;
      }
    }
    const config = { ...(domain ? { domain } : {}), ...(zip ? { deliveryZip: zip } : {}) };
    const body: CreateJobBody = { type: 'details', targets: [asin], ...(Object.keys(config).length > 0 ? { config } : {}) };
    const { job, finished, results } = await runAndRead(client, await projectOf(projectId), body, waitSeconds, 1, signal);
    const target = job.targets?.[0];
    return {
      source: 'crawled',
      jobId: job.id,
      status: job.status,
      finished,
      product: results[0] ?? null,
      ...(target?.reason ? { reason: target.reason } : {}),
    };
  },
});
