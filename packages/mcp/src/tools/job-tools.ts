import { CreateJobBody, JOB_TYPES, ListProjectsQuery, ResultsQuery } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool.ts';
import { JobId, OptionalProjectId } from '../tool-inputs.ts';

/** The create body of `POST /projects/:projectId/jobs`, property for property, beside the project. */
const JobBodyInput = Type.Object({ projectId: OptionalProjectId, ...CreateJobBody.properties }, { additionalProperties: false });

export const listProjects = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description: "The caller's projects (id, name): jobs and monitors belong to one.",
  input: ListProjectsQuery,
  readOnly: true,
  run: (input, { client, signal }) => client.projects.list(input, { signal }),
});

export const createJob = defineTool({
  name: 'create_job',
  title: 'Create a crawl job',
  description: `Queues a crawl job of any type (${JOB_TYPES.join(', ')}) and answers at once with the job, queued; it reserves credits (see estimate_job). Follow it with job_status and job_results.`,
  input: JobBodyInput,
  readOnly: false,
  run: async ({ projectId, ...body }, { client, projectId: projectOf, signal }) => client.jobs.create(await projectOf(projectId), body, { signal }),
});

export const estimateJob = defineTool({
  name: 'estimate_job',
  title: 'Estimate a crawl job',
  description:
    'What create_job with the same input would reserve (credits, a ceiling for reviews and offers), count against the monthly limits and wait for in the queue. Creates and reserves nothing.',
  input: JobBodyInput,
  readOnly: true,
  run: async ({ projectId, ...body }, { client, projectId: projectOf, signal }) => client.jobs.estimate(await projectOf(projectId), body, { signal }),
});

export const jobStatus = defineTool({
  name: 'job_status',
  title: 'Job status',
  description: "A job with its status (queued, running, completed, failed, cancelled), progress, credits and each target's outcome.",
  input: Type.Object({ jobId: JobId }, { additionalProperties: false }),
  readOnly: true,
  run: ({ jobId }, { client, signal }) => client.jobs.get(jobId, { signal }),
});

export const jobResults = defineTool({
  name: 'job_results',
  title: 'Job results',
  description: "One page of a job's result records (docs/data.md lists each type's fields). Pass `pagination.nextCursor` back as `cursor` for the next page.",
  input: Type.Object({ jobId: JobId, ...ResultsQuery.properties }, { additionalProperties: false }),
  readOnly: true,
  run: ({ jobId, ...query }, { client, signal }) => client.jobs.resultsPage(jobId, query, { signal }),
});
